// chronoscope approve --list | approve <request> | deny <request>: a person's
// answer, from a terminal, to a restore an agent asked for over MCP.
// Approving restores (safety checkpoint first, so it can be undone).
import type { Command } from 'commander';
import type { ApprovalRequest } from '../../../shared/model.js';
import { ChronoscopeError } from '../../../shared/errors.js';
import { answerRequest } from '../../approvals/answer.js';
import { previewSummary } from '../../approvals/preview-summary.js';
import { checkRequestId, listRequests } from '../../approvals/requests.js';
import type { Store } from '../../engine/api.js';
import { openCliStore } from '../context.js';
import { printJson, printLine, printLines, relativeTime, safeText, shortId, style, table } from '../output.js';

interface ApproveOptions {
  list?: boolean;
  all?: boolean;
  json?: boolean;
}

/** The fixed JSON shape of a request in `approve --list --json` (issue 13's interface). */
function requestJson(r: ApprovalRequest): Pick<ApprovalRequest, 'id' | 'workspace' | 'checkpoint' | 'paths' | 'requested_at' | 'status' | 'before_prompt'> {
  return { id: r.id, workspace: r.workspace, checkpoint: r.checkpoint, paths: r.paths, requested_at: r.requested_at, status: r.status, ...(r.before_prompt ? { before_prompt: r.before_prompt } : {}) };
}

function requestTable(requests: readonly ApprovalRequest[]): string[] {
  if (requests.length === 0) return ['no restore requests are waiting'];
  return table(
    [{ header: 'REQUEST' }, { header: 'WHEN' }, { header: 'STATUS' }, { header: 'CHECKPOINT' }, { header: 'WORKSPACE' }, { header: 'PATHS' }],
    requests.map((r) => [
      r.id,
      relativeTime(Date.parse(r.requested_at)),
      r.status === 'pending' ? style.warn(r.status) : r.status,
      style.id(shortId(r.checkpoint)),
      safeText(r.workspace),
      r.paths.length === 0 ? style.dim('(whole tree)') : r.paths.map(safeText).join(' '),
    ]),
  );
}

/** What approving each pending request would change, so the person answers knowing it. */
async function previewLines(store: Store, requests: readonly ApprovalRequest[]): Promise<string[]> {
  const lines: string[] = [];
  for (const r of requests.filter((q) => q.status === 'pending')) {
    let summary: string;
    try {
      const ws = await store.workspace(r.workspace);
      summary = previewSummary(await ws.previewRestore(r.checkpoint, r.paths.length > 0 ? { paths: r.paths } : {}));
    } catch (err) {
      summary = `no preview: ${err instanceof Error ? err.message : String(err)}`;
    }
    const what = r.before_prompt ? `put it back as before the prompt "${safeText(r.before_prompt.first_line)}" (${shortId(r.checkpoint)})` : `restore ${shortId(r.checkpoint)}`;
    lines.push(`${r.id}: approving would ${what}: ${summary}`);
  }
  return lines;
}

function answerLines(r: ApprovalRequest): string[] {
  if (r.status === 'denied') return [`denied ${r.id}: nothing was changed`];
  const result = r.result;
  if (!result) return [`approved ${r.id}`];
  return [`approved ${r.id}: restored ${style.id(shortId(result.restored))} in ${safeText(r.workspace)}, ${result.files_changed} file(s) changed`, `to undo: chronoscope restore ${shortId(result.safety)} --yes --workspace ${safeText(r.workspace)}`];
}

export function registerApprove(program: Command): void {
  program
    .command('approve')
    .description("answer yes to an agent's restore request (restores, safety checkpoint first); --list shows the requests")
    .argument('[request]', 'the request id (see --list)')
    .option('--list', 'list the requests waiting for an answer')
    .option('--all', 'with --list: answered ones too')
    .option('--json', 'print machine-readable JSON')
    .action(async (id: string | undefined, options: ApproveOptions) => {
      const store = await openCliStore();
      if (id === undefined && !options.list) throw new ChronoscopeError('bad_input', 'name a request to approve (see chronoscope approve --list)');
      if (options.list || id === undefined) {
        const requests = await listRequests(store.home, { pendingOnly: options.all !== true });
        if (options.json) printJson(requests.map(requestJson));
        else printLines([...requestTable(requests), ...(await previewLines(store, requests))]);
        return;
      }
      const answered = await answerRequest(store, checkRequestId(id), true);
      if (options.json) printJson(requestJson(answered));
      else printLines(answerLines(answered));
    });
  program
    .command('deny')
    .description("answer no to an agent's restore request: nothing is changed")
    .argument('<request>', 'the request id (see approve --list)')
    .option('--json', 'print machine-readable JSON')
    .action(async (id: string, options: ApproveOptions) => {
      const store = await openCliStore();
      const answered = await answerRequest(store, checkRequestId(id), false);
      if (options.json) printJson(requestJson(answered));
      else printLine(answerLines(answered).join('\n'));
    });
}
