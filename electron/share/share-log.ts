// The share log: one commit per push on this clone's own ref, whose parents
// are the previous share-log commit and the checkpoints it newly shares (so
// every push is a fast-forward of a ref no other machine writes). Its tree is
// empty; its message carries the prompts and calls those checkpoints were made
// under, redacted, so a blob-less fetch brings them (the layout:
// docs/design.md, "Shared history").
import type { CallRecord, Checkpoint } from '../../shared/model.js';
import { redactSecrets } from '../../shared/redact.js';
import type { GitContext } from '../engine/git/git-env.js';
import { EMPTY_TREE, git, gitStdin } from '../engine/git/git-runner.js';
import type { PromptEntry } from '../prompts/ledger.js';

export const SHARE_LOG_SUBJECT = 'chronoscope share log';

export interface ShareLogBody {
  v: 1;
  person: string;
  email: string;
  machine: string;
  workspace: string;
  prompts: PromptEntry[];
  calls: CallRecord[];
  /** Local checkpoint id → the id it was shared under (a message the redaction changed). */
  rewritten?: Record<string, string>;
}

/** What the share log already holds: every checkpoint id it shares (local ids, rewritten ones mapped back). */
export async function sharedCheckpointIds(gitCtx: GitContext, logRef: string): Promise<Set<string>> {
  const shared = new Set<string>();
  const tip = await resolveRef(gitCtx, logRef);
  if (tip === null) return shared;
  // The first-parent walk goes through every log commit and ends in the first checkpoint the
  // first log commit shared; a log commit's parents that are not log commits are what it shared.
  const out = await git(gitCtx, ['log', '--first-parent', '--format=%H%x00%P%x00%B%x1e', tip, '--']);
  const logCommits = new Map<string, { parents: string[]; body: ShareLogBody | null }>();
  for (const record of out.split('\x1e')) {
    const [hash, parents, body] = record.replace(/^\n/, '').split('\0');
    if (hash === undefined || parents === undefined || body === undefined) continue;
    const parsed = parseShareLogBody(body);
    if (parsed !== null) logCommits.set(hash, { parents: parents.trim().split(' ').filter(Boolean), body: parsed });
  }
  for (const { parents, body } of logCommits.values()) {
    for (const id of parents) if (!logCommits.has(id)) shared.add(id);
    for (const local of Object.keys(body?.rewritten ?? {})) shared.add(local);
  }
  return shared;
}

export function parseShareLogBody(message: string): ShareLogBody | null {
  if (!message.startsWith(SHARE_LOG_SUBJECT)) return null;
  const json = message.slice(message.indexOf('\n\n') + 2).trim();
  try {
    const parsed = JSON.parse(json) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as ShareLogBody) : null;
  } catch {
    return null;
  }
}

export async function resolveRef(gitCtx: GitContext, ref: string): Promise<string | null> {
  const out = await gitStdin(gitCtx, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okCodes: [0, 1] });
  const sha = out.stdout.toString('utf8').trim();
  return out.code === 0 && /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}

export interface ShareBatch {
  /** Not yet shared, oldest first. */
  checkpoints: Checkpoint[];
  prompts: PromptEntry[];
  calls: CallRecord[];
}

/**
 * What a push would share: the checkpoints not in the log, and the prompts and
 * calls they were made under (a checkpoint's prompt_id; a call's checkpoint),
 * with the calls of those prompts that changed nothing.
 */
export function batchOf(all: readonly Checkpoint[], shared: ReadonlySet<string>, ledger: { prompts: PromptEntry[]; calls: CallRecord[] }): ShareBatch {
  const checkpoints = all.filter((c) => !shared.has(c.id)).sort((a, b) => a.time_ms - b.time_ms);
  const ids = new Set(checkpoints.map((c) => c.id));
  const promptIds = new Set<string>();
  for (const c of checkpoints) if (c.prompt_id) promptIds.add(c.prompt_id);
  for (const call of ledger.calls) if (call.checkpoint && ids.has(call.checkpoint) && call.prompt_id) promptIds.add(call.prompt_id);
  const prompts = ledger.prompts.filter((p) => promptIds.has(p.id)).map(redactPrompt);
  const calls = ledger.calls
    .filter((call) => (call.checkpoint ? ids.has(call.checkpoint) : call.prompt_id !== undefined && promptIds.has(call.prompt_id)))
    .map(redactCall);
  return { checkpoints, prompts, calls };
}

/** The ledger redacts when it writes and reads; this is the last pass before anything leaves the machine. */
export function redactPrompt(p: PromptEntry): PromptEntry {
  return { ...p, text: redactSecrets(p.text) };
}

export function redactCall(call: CallRecord): CallRecord {
  // Where this machine keeps the agent's transcript is a local path of the person's: never shared.
  const { transcript: _local, ...shared } = call;
  return {
    ...shared,
    reason: redactSecrets(call.reason),
    ...(call.intent === undefined ? {} : { intent: redactSecrets(call.intent) }),
    ...(call.output_tail === undefined ? {} : { output_tail: redactSecrets(call.output_tail) }),
  };
}

/**
 * The ids the checkpoints travel under: their own, or — where the redaction
 * would change a message (a store written before messages were masked) — a
 * copy of the commit with the message masked (same tree, same dates).
 */
export async function shareableCommits(gitCtx: GitContext, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const batch = (await gitStdin(gitCtx, ['cat-file', '--batch'], { input: `${ids.join('\n')}\n` })).stdout;
  let at = 0;
  for (const id of ids) {
    const nl = batch.indexOf(0x0a, at);
    const header = batch.subarray(at, nl).toString('utf8').split(' ');
    const size = Number(header[2]);
    const raw = batch.subarray(nl + 1, nl + 1 + size).toString('utf8');
    at = nl + 1 + size + 1;
    const split = raw.indexOf('\n\n');
    const message = split < 0 ? '' : raw.slice(split + 2);
    const masked = redactSecrets(message);
    if (masked === message) {
      out.set(id, id);
      continue;
    }
    const copy = `${raw.slice(0, split)}\n\n${masked}`;
    out.set(id, await writeObject(gitCtx, 'commit', copy));
  }
  return out;
}

export async function writeObject(gitCtx: GitContext, type: 'commit' | 'blob' | 'tree', content: string): Promise<string> {
  const res = await gitStdin(gitCtx, ['hash-object', '-t', type, '-w', '--stdin'], { input: content });
  return res.stdout.toString('utf8').trim();
}

export interface LogCommitInput {
  previous: string | null;
  /** Shared ids, oldest first. */
  parents: readonly string[];
  body: ShareLogBody;
  author: { name: string; email: string };
}

/** Writes the share-log commit (written whole, not with commit-tree: thousands of parents fit no command line). */
export async function writeLogCommit(gitCtx: GitContext, input: LogCommitInput): Promise<string> {
  await writeObject(gitCtx, 'tree', ''); // the empty tree must exist for the pack
  const stamp = `${Math.floor(Date.now() / 1000)} +0000`;
  const who = `${oneLine(input.author.name) || 'unknown'} <${oneLine(input.author.email).replace(/[<>]/g, '')}>`;
  const parents = [...(input.previous ? [input.previous] : []), ...input.parents].map((p) => `parent ${p}\n`).join('');
  const text = `tree ${EMPTY_TREE}\n${parents}author ${who} ${stamp}\ncommitter ${who} ${stamp}\n\n${SHARE_LOG_SUBJECT}\n\n${JSON.stringify(input.body)}\n`;
  return writeObject(gitCtx, 'commit', text);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\0]/g, ' ').trim();
}
