// Who serves the store's agent socket: one process per store. A lock file in
// the store (agent.lock, the engine's dead-holder-aware lock) decides between
// processes starting at the same moment; the socket answers who holds it.
//
// - The daemon only ever takes a free socket: if anyone serves (an app, or
//   another daemon), it leaves quietly.
// - An app (the desktop app or `serve`) takes the socket over from a daemon:
//   it asks the daemon to hand over, the daemon answers with the workspaces it
//   watched and leaves (releasing the lock and the socket), and the app goes
//   on watching them. Another app already serving keeps the socket (its hooks
//   are served there), as before. So one workspace never has two watchers.
import { join } from 'node:path';
import { acquire } from '../engine/support/lock.js';
import { agentSocketPath } from '../agents/core/delegate-socket.js';
import { startDelegateServer, type DelegateOptions, type DelegateServer } from '../agents/core/delegate-server.js';
import { askService, type ServiceKind } from '../agents/core/service-control.js';

export interface OwnedAgentSocket {
  readonly server: DelegateServer;
  /** Workspaces a daemon handed over: the new owner watches them too. */
  readonly inherited: string[];
  /** Closes the socket (requests in flight finish first), then releases the lock. */
  close(): Promise<void>;
}

export interface TakeSocketOptions extends DelegateOptions {
  kind: ServiceKind;
  /** How long an app keeps trying to take the socket over (a daemon starting, a handover under way). */
  patienceMs?: number;
}

export function agentLockPath(home: string): string {
  return join(home, 'agent.lock');
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The lock if it is free (or its holder is dead) within `waitMs`; null if someone else holds it. */
async function tryLock(home: string, waitMs: number): Promise<(() => Promise<void>) | null> {
  try {
    return await acquire(agentLockPath(home), { waitMs, what: 'the agent socket' });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'locked') return null;
    throw err;
  }
}

/** Takes the socket; null when another process serves the store (the caller serves no hooks). */
export async function takeAgentSocket(options: TakeSocketOptions): Promise<OwnedAgentSocket | null> {
  const socket = agentSocketPath(options.home);
  const inherited: string[] = [];
  const deadline = Date.now() + (options.kind === 'daemon' ? 0 : (options.patienceMs ?? 8000));
  for (;;) {
    const status = await askService(socket, { control: 'status' }, 1500).catch(() => null);
    let handedOver = false;
    if (status !== null) {
      if (options.kind === 'daemon' || status.kind === 'app') return null;
      const leaving = await askService(socket, { control: 'handover' }, 5000).catch(() => null);
      if (leaving !== null) {
        inherited.push(...leaving.workspaces);
        handedOver = true;
      }
    }
    // After a handover the daemon needs a moment to let its requests in flight finish and release the lock.
    const release = await tryLock(options.home, handedOver ? 6000 : 0);
    if (release !== null) {
      const server = await startDelegateServer(options).catch((err: unknown) => {
        options.onError?.(err);
        return null;
      });
      if (server !== null) {
        return {
          server,
          inherited,
          close: async () => {
            await server.close();
            await release().catch(() => undefined);
          },
        };
      }
      await release().catch(() => undefined);
    }
    if (Date.now() >= deadline) return null;
    await sleep(200);
  }
}
