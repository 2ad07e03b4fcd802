// A checkpoint's metadata lives in its commit message, so the store is its own
// database: line 1 is the reason, then one line `Chronoscope-Meta: <json>`.
//
// Its texts (the reason, the prompt, the reason of the call that made it) are
// masked with the one redaction (shared/redact.ts) when written and again when
// read: a store written before the rule holds them as typed, and every reader
// (list, show, MCP, the app) gets checkpoints through decodeMessage.
import { controlChars } from '../../../shared/control-chars.js';
import { PROMPT_ID_PATTERN, TRIGGERS, type Checkpoint, type SkippedFile, type Trigger } from '../../../shared/model.js';
import { redactSecrets } from '../../../shared/redact.js';

/** A checkpoint as the engine reads it from the store: its ref, its tree and what its commit message holds. */
export interface CheckpointRecord {
  checkpoint: Checkpoint;
  refname: string;
  tree: string;
  /** For a checkpoint of Hermes' /rollback store (lanes.ts): where it lives and the tree before it. */
  hermes?: { store: string; parentTree: string | null };
  /** For a teammate's checkpoint (electron/share/shared-list.ts): the tree before it in its own lane (clone), null for the first. */
  shared?: { parentTree: string | null };
  /** Permission bits git cannot hold, by path (message.ts). */
  modes?: Record<string, string>;
}

export const META_KEY = 'Chronoscope-Meta';

/** What the commit message stores: the checkpoint's own fields, minus what git already knows (id, reason line) and pins. */
export type CheckpointMeta = Pick<Checkpoint, 'trigger' | 'time_ms' | 'stats' | 'skipped' | 'agent' | 'tool' | 'session' | 'tool_use_id' | 'prompt' | 'prompt_id' | 'change_by' | 'made_by' | 'restore_target' | 'restore_paths' | 'restore_of' | 'paths'> & {
  v: 1;
  /** The checkpoint that was latest when this one was taken (stats are against it). */
  prev?: string | null;
  /**
   * Permission bits git cannot record (anything but 644 and 755), octal, by
   * path: a 0600 file is restored 0600, never more readable than recorded.
   */
  modes?: Record<string, string>;
};

/** One printable line, bounded. */
export function sanitizeLine(text: string, max = 500): string {
  const line = text.replace(controlChars('\\u2028\\u2029'), ' ').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function encodeMessage(reason: string, meta: CheckpointMeta): string {
  const subject = sanitizeLine(redactSecrets(reason)) || meta.trigger;
  return `${subject}\n\n${META_KEY}: ${JSON.stringify(redactMeta(meta))}\n`;
}

/** The meta's free texts, masked. */
function redactMeta(meta: CheckpointMeta): CheckpointMeta {
  const out = { ...meta };
  if (out.prompt !== undefined) out.prompt = redactSecrets(out.prompt);
  if (out.made_by !== undefined) out.made_by = { ...out.made_by, reason: redactSecrets(out.made_by.reason) };
  return out;
}

export interface DecodedMessage {
  reason: string;
  meta: CheckpointMeta;
}

export function decodeMessage(message: string): DecodedMessage {
  const lines = message.split('\n');
  const reason = lines[0] ?? '';
  const metaLine = lines.find((l) => l.startsWith(`${META_KEY}: `));
  let meta: CheckpointMeta = { v: 1, trigger: 'manual', time_ms: 0, stats: { files: 0, insertions: 0, deletions: 0 }, skipped: [] };
  if (metaLine) {
    try {
      const parsed: unknown = JSON.parse(metaLine.slice(META_KEY.length + 2));
      if (parsed && typeof parsed === 'object') meta = normalizeMeta(parsed as Record<string, unknown>);
    } catch {
      /* a damaged message still lists, with defaults */
    }
  }
  return { reason: redactSecrets(reason), meta: redactMeta(meta) };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function normalizeMeta(raw: Record<string, unknown>): CheckpointMeta {
  const trigger = (TRIGGERS as readonly string[]).includes(String(raw['trigger'])) ? (raw['trigger'] as Trigger) : 'manual';
  const stats = (raw['stats'] ?? {}) as Record<string, unknown>;
  const skipped = Array.isArray(raw['skipped'])
    ? (raw['skipped'] as unknown[]).flatMap((s): SkippedFile[] => {
        const o = s as Record<string, unknown>;
        const why = o?.['why'] === 'unreadable' || o?.['why'] === 'special' || o?.['why'] === 'unrecordable' ? o['why'] : 'too_large';
        return typeof o?.['path'] === 'string' ? [{ path: o['path'], size: num(o['size']), why }] : [];
      })
    : [];
  const meta: CheckpointMeta = {
    v: 1,
    trigger,
    time_ms: num(raw['time_ms']),
    stats: { files: num(stats['files']), insertions: num(stats['insertions']), deletions: num(stats['deletions']) },
    skipped,
  };
  for (const key of ['agent', 'tool', 'session', 'tool_use_id', 'prompt', 'restore_target'] as const) {
    const value = str(raw[key]);
    if (value !== undefined) meta[key] = value;
  }
  // Older checkpoints have none; a malformed one is dropped rather than joined to the wrong prompt.
  const promptId = str(raw['prompt_id']);
  if (promptId !== undefined && PROMPT_ID_PATTERN.test(promptId)) meta.prompt_id = promptId;
  if (raw['change_by'] === 'call' || raw['change_by'] === 'other') meta.change_by = raw['change_by'];
  const madeBy = raw['made_by'] as Record<string, unknown> | undefined;
  if (madeBy && typeof madeBy === 'object') {
    const [agent, tool, reason] = [str(madeBy['agent']), str(madeBy['tool']), str(madeBy['reason'])];
    if (agent !== undefined && tool !== undefined && reason !== undefined) meta.made_by = { agent, tool, reason };
  }
  const changed = raw['paths'];
  if (Array.isArray(changed) && changed.length > 0 && changed.every((p) => typeof p === 'string')) meta.paths = changed as string[];
  const paths = raw['restore_paths'];
  if (Array.isArray(paths) && paths.every((p) => typeof p === 'string')) meta.restore_paths = paths as string[];
  const of = raw['restore_of'] as Record<string, unknown> | undefined;
  if (of && typeof of === 'object') {
    const title = str(of['title']);
    const time = of['time_ms'];
    if (title !== undefined && typeof time === 'number' && Number.isFinite(time)) meta.restore_of = { title, time_ms: time, ...(of['undo'] === true ? { undo: true as const } : {}), ...(of['before_prompt'] === true ? { before_prompt: true as const } : {}) };
  }
  const modes = raw['modes'];
  if (modes && typeof modes === 'object' && !Array.isArray(modes)) {
    const clean = Object.entries(modes as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string' && /^[0-7]{3}$/.test(e[1]));
    if (clean.length > 0) meta.modes = Object.fromEntries(clean);
  }
  const prev = str(raw['prev']);
  if (prev !== undefined) meta.prev = prev;
  return meta;
}
