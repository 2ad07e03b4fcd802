// The first page's first questions, asked ahead. While the browser loads the
// page after `serve` prints its URL (0.5-0.8 s), the host asks itself what the
// page will ask first: the newest checkpoints of the workspace it opens first,
// then the newest one's details. The page's same question then takes that
// answer, or joins the work in flight, instead of starting it again. Cold, at
// 10,000 checkpoints, these two took ~400 ms and ~300 ms of the first page.
// An answer is handed out once, within TTL_MS, and dropped as soon as the
// history changes (a checkpoint added or pruned, a restore).
import { FIRST_PAGE_LIMIT } from '../../shared/model.js';
import type { EventChannel, InvokeResult } from '../../shared/ipc.js';
import type { AppService } from '../app/api.js';
import type { InvokeRouter } from './ws-bridge.js';

const TTL_MS = 10_000;
const CHANGES_HISTORY: EventChannel[] = ['checkpoint:added', 'checkpoints:pruned', 'checkpoints:restored', 'restore:done'];

export interface ReadAhead extends InvokeRouter {
  /** Asks ahead for `workspace` (the one the page opens first); resolves when done, never rejects. */
  start(workspace: string | undefined): Promise<void>;
  dispose(): void;
}

export function readAhead(router: InvokeRouter, events: Pick<AppService, 'on'>): ReadAhead {
  const ahead = new Map<string, Promise<InvokeResult<unknown>>>();
  const keyOf = (channel: string, payload: unknown) => `${channel}\0${JSON.stringify(payload)}`;
  const ask = (channel: string, payload: unknown): Promise<InvokeResult<unknown>> => {
    const key = keyOf(channel, payload);
    const answer = router.invoke(channel, payload);
    ahead.set(key, answer);
    setTimeout(() => {
      if (ahead.get(key) === answer) ahead.delete(key);
    }, TTL_MS).unref();
    return answer;
  };
  const offs = CHANGES_HISTORY.map((channel) => events.on(channel, () => ahead.clear()));
  return {
    invoke(channel, payload) {
      const key = keyOf(channel, payload);
      const answer = ahead.get(key);
      if (answer === undefined) return router.invoke(channel, payload);
      ahead.delete(key);
      return answer;
    },
    async start(workspace) {
      if (workspace === undefined) return;
      const listed = await ask('checkpoints:list', { workspace, limit: FIRST_PAGE_LIMIT });
      const newest = listed.ok && Array.isArray(listed.value) ? (listed.value[0] as { id?: unknown } | undefined) : undefined;
      if (typeof newest?.id === 'string') await ask('checkpoints:show', { workspace, id: newest.id });
    },
    dispose() {
      for (const off of offs) off();
      ahead.clear();
    },
  };
}
