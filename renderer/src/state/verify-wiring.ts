// Host events for verification, bisect and agents' restore requests, wired
// once at start beside the rest (wiring.ts calls this).
import type { ApprovalRequest } from '../../../shared/model.js';
import type { AppClient } from '../client/create-client.js';
import { useConnection } from './connection.js';
import { useToasts } from './toasts.js';
import { useApprovals } from './approvals.js';
import { useVerify } from './verify.js';
import { useWorkspaces } from './workspaces.js';

/** The desktop app notifies from the main process; the browser host's page says it itself. */
function announceRequest(request: ApprovalRequest): void {
  const title = `${request.agent ?? 'An agent'} asks to restore ${request.checkpoint.slice(0, 8)}`;
  useToasts.getState().push({ tone: 'warning', title, body: 'Answer at the top of the window, after looking at the preview.' }, 15_000);
  if (useConnection.getState().info?.host === 'electron' || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(`Chronoscope — ${title}`, { body: request.workspace, tag: request.id });
  } catch {
    // refused in this context: the toast and the panel remain
  }
}

export function startVerifyWiring(c: AppClient): void {
  c.on('verify:recorded', ({ workspace, record }) => useVerify.getState().record(workspace, record));
  c.on('bisect:progress', ({ job, message, runs, remaining_at_most }) => useVerify.getState().bisectProgress(job, message, runs, remaining_at_most));
  c.on('bisect:done', ({ job, result, error, cancelled }) =>
    useVerify.getState().bisectDone(job, { ...(result ? { result } : {}), ...(error ? { error: error.message } : {}), ...(cancelled ? { cancelled } : {}) }),
  );
  const announced = new Set<string>();
  c.on('approvals:changed', ({ pending }) => {
    useApprovals.getState().set(pending);
    for (const r of pending) {
      if (announced.has(r.id)) continue;
      announced.add(r.id);
      announceRequest(r);
    }
  });
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
