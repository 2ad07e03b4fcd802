// Host events for verification, bisect and agents' restore requests, wired
// once at start beside the rest (wiring.ts calls this).
import type { AppClient } from '../client/create-client.js';
import { useApprovals } from './approvals.js';
import { useVerify } from './verify.js';
import { useWorkspaces } from './workspaces.js';

export function startVerifyWiring(c: AppClient): void {
  c.on('verify:recorded', ({ workspace, record }) => useVerify.getState().record(workspace, record));
  c.on('bisect:progress', ({ job, message, runs, remaining_at_most }) => useVerify.getState().bisectProgress(job, message, runs, remaining_at_most));
  c.on('bisect:done', ({ job, result, error, cancelled }) =>
    useVerify.getState().bisectDone(job, { ...(result ? { result } : {}), ...(error ? { error: error.message } : {}), ...(cancelled ? { cancelled } : {}) }),
  );
  c.on('approvals:changed', ({ pending }) => useApprovals.getState().set(pending));
  c.onReconnect(() => {
    void useApprovals.getState().load();
    void useVerify.getState().load(useWorkspaces.getState().current);
  });
  let shown: string | null | undefined;
  useWorkspaces.subscribe((s) => {
    if (s.current === shown) return;
    shown = s.current;
    void useVerify.getState().load(s.current);
  });
  void useApprovals.getState().load();
}
