// A desktop notification for each restore an agent asks for, saying what
// approving would change; the person answers in the window, where the request
// is shown with its full preview. Takes Electron as a parameter like the rest
// of the shell; the browser host's page says it itself.
import type { Notification } from 'electron';
import type { ApprovalRequest } from '../../shared/model.js';
import type { AppService } from '../app/api.js';
import { previewSummary } from '../approvals/preview-summary.js';
import type { ShellElectron } from './electron-api.js';

export function notifyApprovalRequests(electron: Pick<ShellElectron, 'Notification'>, app: AppService, showWindow: () => void): () => void {
  const seen = new Set<string>();
  const live = new Set<Notification>(); // kept referenced until closed, or the click handler is lost
  return app.on('approvals:changed', ({ pending }) => {
    for (const request of pending) {
      if (seen.has(request.id) || !electron.Notification.isSupported()) continue;
      seen.add(request.id);
      void previewLine(app, request).then((preview) => {
        const what = request.paths.length > 0 ? request.paths.join(', ') : 'the whole workspace';
        const notification = new electron.Notification({
          title: `${request.agent ?? 'An agent'} asks to restore ${request.checkpoint.slice(0, 8)}`,
          body: `${what} in ${request.workspace}: ${preview}. Open Chronoscope to answer.`,
          urgency: 'critical',
        });
        notification.on('click', showWindow);
        notification.on('close', () => live.delete(notification));
        live.add(notification);
        notification.show();
      });
    }
  });
}

async function previewLine(app: AppService, request: ApprovalRequest): Promise<string> {
  try {
    const ws = await app.workspace(request.workspace);
    return previewSummary(await ws.previewRestore(request.checkpoint, request.paths.length > 0 ? { paths: request.paths } : {}));
  } catch {
    return 'preview unavailable';
  }
}
