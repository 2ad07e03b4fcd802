// The effect ledger: one append-only JSON Lines file per workspace in the
// store, `<home>/workspaces/<id>/effects.jsonl`. Every append is one write()
// of one whole line on an O_APPEND descriptor followed by fsync, so concurrent
// writers (the app, a hook process, the CLI) never interleave and a crash can
// at worst leave a torn last line, which reading skips.
//
// Records are never rewritten. A later fact about an effect (a PostToolUse
// saying the push happened, or failed) is its own line, a status line
// `{"status_of": id, "status": …}`, which list() folds into the record. A
// status line may also carry what the reflog learnt about a push the hook
// announced (`set`: its commits, exact compensation and reflog id), so one
// push is one record.
//
// Secrets are masked on the way in and again on the way out (shared/redact.ts):
// a ledger written before the rule holds commands as typed.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { EffectRecord, EffectStatus } from '../../shared/model.js';
import { redactEffectText, redactSecrets } from '../../shared/redact.js';
import { appendJsonLine, readJsonLines } from '../fs/json-lines.js';
import { EFFECT_KINDS, EFFECT_SOURCES, EFFECT_STATUSES } from './kinds.js';

export type EffectInput = Omit<EffectRecord, 'id' | 'time' | 'time_ms'> &
  Partial<Pick<EffectRecord, 'id' | 'time' | 'time_ms'>>;

/** Fields a status line may fill in on the record it is about. */
export type EffectUpdate = Partial<Pick<EffectRecord, 'old_commit' | 'new_commit' | 'compensation' | 'summary' | 'reflog_id'>>;

interface StatusLine {
  status_of: string;
  status: EffectStatus;
  time: string;
  time_ms: number;
  set?: EffectUpdate;
}

export function ledgerPath(storeHome: string, workspaceId: string): string {
  return join(storeHome, 'workspaces', workspaceId, 'effects.jsonl');
}

/** Sortable, unique enough for one workspace's ledger: time in base 36 plus randomness. */
export function newEffectId(timeMs: number = Date.now()): string {
  return `e${timeMs.toString(36)}${randomBytes(5).toString('hex')}`;
}

export class EffectLedger {
  readonly path: string;

  constructor(
    readonly storeHome: string,
    readonly workspaceId: string,
  ) {
    if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) throw new Error(`bad workspace id: ${workspaceId}`);
    this.path = ledgerPath(storeHome, workspaceId);
  }

  /** Records one effect. `id`, `time` and `time_ms` are filled in when absent. */
  async append(input: EffectInput): Promise<EffectRecord> {
    const timeMs = input.time_ms ?? (input.time !== undefined ? Date.parse(input.time) : Date.now());
    const record: EffectRecord = {
      ...redactEffectText(input),
      id: input.id ?? newEffectId(timeMs),
      time: input.time ?? new Date(timeMs).toISOString(),
      time_ms: timeMs,
    };
    await this.writeLine(record);
    return record;
  }

  /**
   * Says what became of an effect recorded earlier (e.g. intended → happened). Appends a
   * status line; returns the folded record, or null when no record has that id.
   */
  async setStatus(id: string, status: EffectStatus, timeMs: number = Date.now(), set?: EffectUpdate): Promise<EffectRecord | null> {
    const line: StatusLine = { status_of: id, status, time: new Date(timeMs).toISOString(), time_ms: timeMs, ...(set === undefined ? {} : { set: redactUpdate(set) }) };
    const existing = (await this.list()).find((r) => r.id === id);
    if (existing === undefined) return null;
    await this.writeLine(line);
    return fold(existing, line);
  }

  /** Every record, oldest first, with later status lines applied. */
  async list(options: { sinceMs?: number } = {}): Promise<EffectRecord[]> {
    const records = new Map<string, EffectRecord>();
    for (const parsed of await readJsonLines(this.path)) {
      if (isStatusLine(parsed)) {
        const target = records.get(parsed.status_of);
        if (target !== undefined) records.set(target.id, fold(target, parsed));
      } else if (isEffectRecord(parsed)) {
        if (!records.has(parsed.id)) records.set(parsed.id, parsed);
      }
    }
    const all = [...records.values()].map(redactEffectText).sort((a, b) => a.time_ms - b.time_ms);
    const since = options.sinceMs;
    return since === undefined ? all : all.filter((r) => r.time_ms >= since);
  }

  private writeLine(value: unknown): Promise<void> {
    return appendJsonLine(this.path, value);
  }
}

/**
 * A status line applied to its record. A call seen to run (happened, failed, nothing_sent) is never
 * undone by a later "denied": that is inferred from a batch of calls (claude-code/hook.ts), and a
 * PostToolUse written meanwhile by another hook process is the better witness.
 */
function fold(record: EffectRecord, line: StatusLine): EffectRecord {
  if (line.status === 'denied' && (record.status === 'happened' || record.status === 'failed' || record.status === 'nothing_sent')) return record;
  return { ...record, ...pickUpdate(line.set), status: line.status };
}

function redactUpdate(set: EffectUpdate): EffectUpdate {
  return {
    ...set,
    ...(set.summary === undefined ? {} : { summary: redactSecrets(set.summary) }),
    ...(set.compensation === undefined || set.compensation === null ? {} : { compensation: redactSecrets(set.compensation) }),
  };
}

function isStatusLine(v: unknown): v is StatusLine {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.status_of === 'string' && typeof o.status === 'string' && (EFFECT_STATUSES as readonly string[]).includes(o.status);
}

/** Only the known fields of a status line's `set`, each of the right type. */
function pickUpdate(set: unknown): EffectUpdate {
  if (typeof set !== 'object' || set === null) return {};
  const o = set as Record<string, unknown>;
  const out: EffectUpdate = {};
  for (const key of ['old_commit', 'new_commit', 'compensation'] as const) {
    const v = o[key];
    if (typeof v === 'string' || v === null) out[key] = v;
  }
  if (typeof o['summary'] === 'string') out.summary = o['summary'];
  if (typeof o['reflog_id'] === 'string') out.reflog_id = o['reflog_id'];
  return out;
}

function isEffectRecord(v: unknown): v is EffectRecord {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.id === 'string' &&
    typeof o.kind === 'string' &&
    (EFFECT_KINDS as readonly string[]).includes(o.kind) &&
    typeof o.target === 'string' &&
    typeof o.command === 'string' &&
    typeof o.time_ms === 'number' &&
    typeof o.time === 'string' &&
    typeof o.source === 'string' &&
    (EFFECT_SOURCES as readonly string[]).includes(o.source) &&
    typeof o.status === 'string' &&
    (EFFECT_STATUSES as readonly string[]).includes(o.status) &&
    (o.compensation === null || typeof o.compensation === 'string')
  );
}
