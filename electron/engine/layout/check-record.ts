// The outcome of a workspace's last `check`, kept in its store folder
// (check.json, written atomically): which checkpoints were found damaged and
// what they lost, and when the check ran (checkIfDue runs at most once a day).
// `list` merges the damaged ones in (markChecked); it reads this file on every
// listing, so the parsed file is kept for the process and read again only when
// its identity (inode, size, mtime) changes.
import type { BigIntStats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Checkpoint } from '../../../shared/model.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import { readTextBounded } from '../../fs/bounded-read.js';

export const CHECK_FILE = 'check.json';
/**
 * The checker that wrote a record. Records of an older one are not believed:
 * before 2 the check misread delta-compressed packs (it inflated a delta's
 * bytes after reading its base had reused their buffer) and marked sound
 * checkpoints damaged. Such a record reads as "never checked", so no mark is
 * shown and the next idle check (due at once) writes a true one.
 */
export const CHECKER_VERSION = 2;
/** Paths kept per damaged checkpoint (the count says how many there were). */
export const LOST_KEPT = 50;
const MAX_BYTES = 8 * 1024 * 1024;

export interface CheckRecord {
  v: typeof CHECKER_VERSION;
  /** When the check started and finished (ms since the epoch). */
  started_ms: number;
  finished_ms: number;
  /** Checkpoints checked. */
  checkpoints: number;
  /** Damaged checkpoints by id: the paths they lost (at most LOST_KEPT) and how many in all. */
  damaged: Record<string, { lost: string[]; lost_count: number }>;
}

const cache = new Map<string, { key: string; record: CheckRecord | null }>();

function statKey(st: BigIntStats | null): string {
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : 'none';
}

function parse(text: string): CheckRecord | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const o = raw as Record<string, unknown>;
  if (o['v'] !== CHECKER_VERSION) return null; // an older checker's word (see CHECKER_VERSION), or not ours
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const damaged: CheckRecord['damaged'] = {};
  if (o['damaged'] && typeof o['damaged'] === 'object') {
    for (const [id, value] of Object.entries(o['damaged'] as Record<string, unknown>)) {
      if (!/^[0-9a-f]{40,64}$/.test(id) || !value || typeof value !== 'object') continue;
      const v = value as Record<string, unknown>;
      const lost = Array.isArray(v['lost']) ? v['lost'].filter((p): p is string => typeof p === 'string') : [];
      damaged[id] = { lost, lost_count: Math.max(lost.length, num(v['lost_count'])) };
    }
  }
  return { v: CHECKER_VERSION, started_ms: num(o['started_ms']), finished_ms: num(o['finished_ms']), checkpoints: num(o['checkpoints']), damaged };
}

/** The workspace's last check, or null when none was recorded (or the file is not ours). */
export async function readCheckRecord(wsDir: string): Promise<CheckRecord | null> {
  const file = path.join(wsDir, CHECK_FILE);
  const key = statKey(await fs.stat(file, { bigint: true }).catch(() => null));
  const known = cache.get(file);
  if (known?.key === key) return known.record;
  const record = key === 'none' ? null : await readTextBounded(file, MAX_BYTES).then(parse, () => null);
  if (cache.size > 256) cache.clear();
  cache.set(file, { key, record });
  return record;
}

export async function writeCheckRecord(wsDir: string, record: CheckRecord): Promise<void> {
  await writeFileAtomic(path.join(wsDir, CHECK_FILE), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/** The checkpoints with those the last check found damaged marked `damaged: true`. */
export async function markChecked(wsDir: string, checkpoints: Checkpoint[]): Promise<Checkpoint[]> {
  const record = await readCheckRecord(wsDir);
  if (!record || Object.keys(record.damaged).length === 0) return checkpoints;
  return checkpoints.map((c) => (!c.damaged && record.damaged[c.id] ? { ...c, damaged: true } : c));
}
