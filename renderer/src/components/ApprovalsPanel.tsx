// Restores agents asked for through MCP, waiting for the person: each with
// what it would change (the same preview as the restore button's) and the
// two answers. Nothing is restored until "Approve"; the agent is told either way.
import { useEffect, useState } from 'react';
import type { RestorePreviewWithEffects } from '../../../shared/ipc.js';
import type { ApprovalRequest } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { shortId } from '../lib/time.js';
import { useApprovals } from '../state/approvals.js';
import { client } from '../state/client.js';
import { InlineError, Skeleton } from './bits.js';
import { Icon } from './Icon.js';

export function ApprovalsPanel() {
  const pending = useApprovals((s) => s.pending);
  const error = useApprovals((s) => s.error);
  if (pending.length === 0) return null;
  return (
    <section className="approvals" aria-label="Restore requests from agents" data-testid="approvals">
      {error && <InlineError message={error} />}
      {pending.map((r) => (
        <ApprovalCard key={r.id} request={r} />
      ))}
    </section>
  );
}

type Preview = { status: 'loading' } | { status: 'ready'; value: RestorePreviewWithEffects } | { status: 'error'; error: string };

function ApprovalCard({ request }: { request: ApprovalRequest }) {
  const answering = useApprovals((s) => s.answering[request.id] === true);
  const answer = useApprovals((s) => s.answer);
  const [preview, setPreview] = useState<Preview>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    client()
      .invoke('restore:preview', { workspace: request.workspace, id: request.checkpoint, ...(request.paths.length > 0 ? { paths: request.paths } : {}) })
      .then(
        (value) => live && setPreview({ status: 'ready', value }),
        (err: unknown) => live && setPreview({ status: 'error', error: errorLine(err) }),
      );
    return () => {
      live = false;
    };
  }, [request.workspace, request.checkpoint, request.paths]);
  const what = request.paths.length > 0 ? request.paths.join(', ') : 'the whole workspace';
  return (
    <div className="banner banner-warning banner-stacked approval" data-testid="approval-request">
      <Icon name="alert" size={14} />
      <span>
        <strong>{request.agent ?? 'An agent'}</strong>{' '}
        {request.before_prompt ? (
          <>
            asks to put {what} back as it was before the prompt <q data-testid="approval-prompt">{request.before_prompt.first_line}</q> (checkpoint <strong className="mono">{shortId(request.checkpoint)}</strong>)
          </>
        ) : (
          <>
            asks to restore <strong className="mono">{shortId(request.checkpoint)}</strong> — {what}
          </>
        )}{' '}
        in <code>{request.workspace}</code>. A safety checkpoint is taken first, so it can be undone.
      </span>
      {preview.status === 'loading' && <Skeleton lines={2} />}
      {preview.status === 'error' && <InlineError message={preview.error} />}
      {preview.status === 'ready' && <PreviewSummary preview={preview.value} />}
      <span className="verify-actions">
        <button type="button" className="button button-danger small" data-testid="approval-approve" disabled={answering || preview.status !== 'ready'} onClick={() => void answer(request.id, true)}>
          Approve and restore
        </button>
        <button type="button" className="button button-subtle small" data-testid="approval-deny" disabled={answering} onClick={() => void answer(request.id, false)}>
          Deny
        </button>
      </span>
    </div>
  );
}

function PreviewSummary({ preview }: { preview: RestorePreviewWithEffects }) {
  const groups: [string, string[]][] = [
    ['overwritten', preview.modified],
    ['added back', preview.added],
    ['deleted', preview.deleted],
    ['untracked removed', preview.untracked_removed],
  ];
  const total = groups.reduce((n, [, files]) => n + files.length, 0);
  if (total === 0) return <span className="muted">No file would change.</span>;
  return (
    <ul className="approval-preview" data-testid="approval-preview">
      {groups
        .filter(([, files]) => files.length > 0)
        .map(([label, files]) => (
          <li key={label}>
            {files.length} {label}: <span className="mono">{files.slice(0, 5).join(', ')}{files.length > 5 ? ` and ${files.length - 5} more` : ''}</span>
          </li>
        ))}
      {preview.effects_since.length > 0 && <li>{preview.effects_since.length} irreversible effect(s) since then stay true outside.</li>}
    </ul>
  );
}
