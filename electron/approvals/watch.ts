// Notices restore requests filed by agents (an MCP server is another process)
// and answers given elsewhere (the CLI), for the app: the pending list is
// re-read on a change in the approvals folder and, because folder watching is
// not reliable everywhere, every few seconds too. Calls back only when the
// list changed.
import { watch, type FSWatcher } from 'node:fs';
import fs from 'node:fs/promises';
import type { ApprovalRequest } from '../../shared/model.js';
import { approvalsDir, listRequests } from './requests.js';

export interface ApprovalsWatch {
  /** Re-read now (after an answer given through the app). */
  poke(): void;
  dispose(): void;
}

export function watchApprovals(storeHome: string, onChange: (pending: ApprovalRequest[]) => void, pollMs = 3000): ApprovalsWatch {
  let last = '';
  let disposed = false;
  let watcher: FSWatcher | null = null;
  let reading: Promise<void> | null = null;
  let again = false;

  const read = (): void => {
    if (disposed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = listRequests(storeHome, { pendingOnly: true })
      .then((pending) => {
        const key = JSON.stringify(pending.map((r) => r.id));
        if (key !== last && !disposed) {
          last = key;
          onChange(pending);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          read();
        }
      });
  };

  void fs
    .mkdir(approvalsDir(storeHome), { recursive: true, mode: 0o700 })
    .then(() => {
      if (disposed) return;
      try {
        watcher = watch(approvalsDir(storeHome), () => read());
        watcher.on('error', () => undefined);
      } catch {
        /* polling alone */
      }
    })
    .catch(() => undefined);
  const timer = setInterval(read, pollMs);
  timer.unref();
  read();

  return {
    poke: read,
    dispose() {
      disposed = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
