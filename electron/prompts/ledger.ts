// The prompt ledger: what the person asked each agent in a workspace, and how
// the agent's tool calls ended. One append-only JSON Lines file per workspace
// in the store, `<home>/workspaces/<id>/prompts.jsonl`, written as the effect
// ledger is (fs/json-lines.ts: one write of one whole line, fsync; a torn
// last line is skipped on reading), because hook processes of several agents
// append to it at once and never hold the workspace lock for it.
//
// Two kinds of line, never rewritten:
//   {"kind":"prompt", id, text, agent, session, time, time_ms, before}
//   {"kind":"call", prompt_id?, agent, session?, tool, reason, tool_use_id?,
//     status, exit_code?, output_tail?, intent?, paths?, checkpoint?, transcript?, time, time_ms}
// Which checkpoints a prompt has is not stored here: each checkpoint carries
// its prompt_id (shared/model.ts), so a listing joins the two.
//
// Texts are redacted on the way in and again on the way out (shared/redact.ts),
// and bounded (PROMPT_TEXT_MAX, CALL_OUTPUT_TAIL_MAX, INTENT_MAX): a ledger
// is a record of words, never a copy of a transcript or a build log.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { CALL_OUTPUT_TAIL_MAX, INTENT_MAX, PROMPT_TEXT_MAX, type CallRecord } from '../../shared/model.js';
import { redactSecrets } from '../../shared/redact.js';
import { appendJsonLine, readJsonLines } from '../fs/json-lines.js';

/** A prompt as the ledger keeps it; PromptRecord adds what a listing joins from the checkpoints. */
export interface PromptEntry {
  id: string;
  text: string;
  agent: string;
  session: string;
  time: string;
  time_ms: number;
  /** The workspace's latest checkpoint when the prompt was given. */
  before: string | null;
}

export type PromptInput = Omit<PromptEntry, 'id' | 'time' | 'time_ms'> & Partial<Pick<PromptEntry, 'id' | 'time_ms'>>;
export type CallInput = Omit<CallRecord, 'time' | 'time_ms'> & Partial<Pick<CallRecord, 'time_ms'>>;

export function promptLedgerPath(storeHome: string, workspaceId: string): string {
  return join(storeHome, 'workspaces', workspaceId, 'prompts.jsonl');
}

/** Sortable, unique enough for one workspace: 'p' + time in base 36 + randomness. */
export function newPromptId(timeMs: number = Date.now()): string {
  return `p${timeMs.toString(36)}${randomBytes(4).toString('hex')}`;
}

export { PROMPT_ID_PATTERN } from '../../shared/model.js';

/** The end of a text, at most `max` characters, cut at a line start where one is near. */
function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const nl = cut.indexOf('\n');
  return nl >= 0 && nl < max / 4 ? cut.slice(nl + 1) : cut;
}

function head(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Redacts before bounding, so a token the cut would split is masked whole. */
function cleanPrompt(entry: PromptEntry): PromptEntry {
  return { ...entry, text: head(redactSecrets(entry.text), PROMPT_TEXT_MAX) };
}

function cleanCall(call: CallRecord): CallRecord {
  return {
    ...call,
    reason: redactSecrets(call.reason),
    ...(call.output_tail === undefined ? {} : { output_tail: tail(redactSecrets(call.output_tail), CALL_OUTPUT_TAIL_MAX) }),
    ...(call.intent === undefined ? {} : { intent: tail(redactSecrets(call.intent), INTENT_MAX) }),
  };
}

export class PromptLedger {
  readonly path: string;

  constructor(
    readonly storeHome: string,
    readonly workspaceId: string,
  ) {
    if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) throw new Error(`bad workspace id: ${workspaceId}`);
    this.path = promptLedgerPath(storeHome, workspaceId);
  }

  async appendPrompt(input: PromptInput): Promise<PromptEntry> {
    const timeMs = input.time_ms ?? Date.now();
    const entry = cleanPrompt({
      id: input.id ?? newPromptId(timeMs),
      text: input.text,
      agent: input.agent,
      session: input.session,
      time: new Date(timeMs).toISOString(),
      time_ms: timeMs,
      before: input.before,
    });
    await appendJsonLine(this.path, { kind: 'prompt', ...entry });
    return entry;
  }

  async appendCall(input: CallInput): Promise<CallRecord> {
    const timeMs = input.time_ms ?? Date.now();
    const call = cleanCall({ ...input, time: new Date(timeMs).toISOString(), time_ms: timeMs });
    await appendJsonLine(this.path, { kind: 'call', ...call });
    return call;
  }

  /** Every prompt and every call, oldest first; lines of the wrong shape are skipped. */
  async read(): Promise<{ prompts: PromptEntry[]; calls: CallRecord[] }> {
    const prompts: PromptEntry[] = [];
    const calls: CallRecord[] = [];
    for (const line of await readJsonLines(this.path)) {
      if (isPromptLine(line)) prompts.push(cleanPrompt(pickPrompt(line)));
      else if (isCallLine(line)) calls.push(cleanCall(pickCall(line)));
    }
    const byTime = (a: { time_ms: number }, b: { time_ms: number }) => a.time_ms - b.time_ms;
    return { prompts: prompts.sort(byTime), calls: calls.sort(byTime) };
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const str = (o: Obj, k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined);

function isPromptLine(v: unknown): v is Obj {
  return isObj(v) && v.kind === 'prompt' && typeof v.id === 'string' && typeof v.text === 'string' && typeof v.agent === 'string' && typeof v.session === 'string' && typeof v.time_ms === 'number';
}

function isCallLine(v: unknown): v is Obj {
  return isObj(v) && v.kind === 'call' && typeof v.agent === 'string' && typeof v.tool === 'string' && typeof v.reason === 'string' && (v.status === 'ok' || v.status === 'failed') && typeof v.time_ms === 'number';
}

function pickPrompt(o: Obj): PromptEntry {
  const timeMs = o.time_ms as number;
  return {
    id: o.id as string,
    text: o.text as string,
    agent: o.agent as string,
    session: o.session as string,
    time: str(o, 'time') ?? new Date(timeMs).toISOString(),
    time_ms: timeMs,
    before: str(o, 'before') ?? null,
  };
}

function pickCall(o: Obj): CallRecord {
  const timeMs = o.time_ms as number;
  const out: CallRecord = {
    agent: o.agent as string,
    tool: o.tool as string,
    reason: o.reason as string,
    status: o.status as 'ok' | 'failed',
    time: str(o, 'time') ?? new Date(timeMs).toISOString(),
    time_ms: timeMs,
  };
  for (const key of ['prompt_id', 'session', 'tool_use_id', 'output_tail', 'intent', 'checkpoint', 'transcript'] as const) {
    const v = str(o, key);
    if (v !== undefined) out[key] = v;
  }
  if (typeof o.exit_code === 'number' && Number.isInteger(o.exit_code)) out.exit_code = o.exit_code;
  if (Array.isArray(o.paths) && o.paths.every((p) => typeof p === 'string')) out.paths = o.paths as string[];
  return out;
}
