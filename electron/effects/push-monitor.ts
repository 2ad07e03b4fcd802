// Pushes seen without any hook: git logs every update of a remote-tracking
// ref, and a push writes `update by push` there. Reading those reflogs (files,
// never a git command) catches every push from this repository — by any agent
// or by hand — with the remote ref's old and new commit.
//
// How far each reflog was read is kept in a small state file beside the
// ledger (written by rename, so it is whole or absent). Ids are derived from
// the reflog line, so even a lost state file cannot record a push twice.
//
// First sight of a workspace: history before Chronoscope watched is not news.
// The store calls recordPushBaseline when it registers a workspace, so the
// read positions at that moment are the baseline and every line git appends
// afterwards is new: attribution follows the order of events, not reflog
// times, which have whole seconds only (a push in the very second of
// registration would otherwise be a guess). Without a baseline (a workspace
// registered before baselines existed, or a lost state file), the first scan
// falls back to time: entries at or after `sinceMs` (the registration time)
// are recorded; without it, that scan only takes a baseline. Known gap: a push that deletes a branch removes that branch's
// reflog with it, and tag pushes have no reflog; the hook sees those.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { readTextBounded } from '../fs/bounded-read.js';

/** A reflog or our state file bigger than this is not one we can read whole (or not a file at all). */
const REFLOG_MAX_BYTES = 32 * 1024 * 1024;
import { dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-file.js';
import type { EffectRecord } from '../../shared/model.js';
import { findGitDirs, readRemotes } from './git-files.js';
import type { EffectLedger } from './ledger.js';
import { stripUrlCredentials } from '../../shared/redact.js';

export const ZERO_COMMIT = /^0+$/;

interface RefState {
  /** Bytes of the reflog already read. */
  offset: number;
  /** The last line read, to notice a reflog rewritten by `git reflog expire`. */
  last_line: string;
}

interface MonitorState {
  version: 1;
  refs: Record<string, RefState>;
}

export interface ScanOptions {
  /** First scan without a baseline only: record entries at or after this time (ms); default: record nothing old. */
  sinceMs?: number;
  /** The checkpoint to attach to new records (the workspace's latest). */
  checkpoint?: string | null;
  /** The workspace field of new records; default the workspace root. */
  workspace?: string;
}

/** The folder of remote-tracking reflogs to watch, or null when the workspace is not in a git repository. It may not exist yet. */
export function pushReflogDir(workspaceRoot: string): string | null {
  const dirs = findGitDirs(workspaceRoot);
  return dirs === null ? null : join(dirs.commonDir, 'logs', 'refs', 'remotes');
}

export interface ReflogEntry {
  old: string;
  new: string;
  timeMs: number;
  message: string;
  line: string;
}

export function parseReflogLine(line: string): ReflogEntry | null {
  const m = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) .*? (\d+) [+-]\d{4}\t(.*)$/.exec(line);
  if (m === null) return null;
  return { old: m[1] ?? '', new: m[2] ?? '', timeMs: Number(m[3]) * 1000, message: m[4] ?? '', line };
}

/** Scans the remote-tracking reflogs and appends a record for every push not seen before. Returns only the new records. */
export async function scanPushes(
  workspaceRoot: string,
  ledger: EffectLedger,
  statePath: string,
  options: ScanOptions = {},
): Promise<EffectRecord[]> {
  const dirs = findGitDirs(workspaceRoot);
  if (dirs === null) return [];
  const logsDir = join(dirs.commonDir, 'logs', 'refs', 'remotes');
  const files = await listFiles(logsDir);
  const previous = await readState(statePath);
  const firstScan = previous === null;
  const state: MonitorState = previous ?? { version: 1, refs: {} };
  const remotes = readRemotes(dirs.commonDir);

  const found: { ref: string; entry: ReflogEntry }[] = [];
  for (const file of files) {
    const ref = relative(logsDir, file).split(sep).join('/');
    let text: string;
    try {
      text = await readTextBounded(file, REFLOG_MAX_BYTES);
    } catch {
      continue; // deleted between listing and reading, or not a regular file
    }
    const known = state.refs[ref];
    const fresh = unreadPart(text, known);
    const complete = fresh.slice(0, fresh.lastIndexOf('\n') + 1); // a line git is still writing waits
    for (const line of complete.split('\n')) {
      const entry = parseReflogLine(line);
      if (entry === null || !entry.message.startsWith('update by push')) continue;
      if (firstScan && (options.sinceMs === undefined || entry.timeMs < Math.floor(options.sinceMs / 1000) * 1000)) continue;
      found.push({ ref, entry });
    }
    state.refs[ref] = readPosition(text.slice(0, text.length - (fresh.length - complete.length)));
  }

  const recorded: EffectRecord[] = [];
  if (found.length > 0) {
    const all = await ledger.list();
    const existing = new Set(all.flatMap((r) => (r.reflog_id === undefined ? [r.id] : [r.id, r.reflog_id])));
    for (const { ref, entry } of found.sort((a, b) => a.entry.timeMs - b.entry.timeMs)) {
      const id = `p${createHash('sha256').update(`${ledger.workspaceId}\0${ref}\0${entry.line}`).digest('hex').slice(0, 20)}`;
      if (existing.has(id)) continue;
      const { remote, branch } = splitRemoteRef(ref, remotes);
      const url = remotes.get(remote);
      const compensation = pushCompensation(remote, branch, entry.old, entry.new);
      const summary = ZERO_COMMIT.test(entry.old)
        ? `new branch ${branch} pushed to ${remote} at ${entry.new.slice(0, 7)}`
        : `${branch} pushed to ${remote}: ${entry.old.slice(0, 7)} → ${entry.new.slice(0, 7)}`;
      // The hook announced this push before it ran: complete that record instead of adding a second one.
      const announced = matchingHookPush(all, `${remote}/${branch}`, entry.timeMs);
      if (announced !== null) {
        existing.add(id);
        const merged = await ledger.setStatus(announced.id, 'happened', Date.now(), {
          old_commit: ZERO_COMMIT.test(entry.old) ? null : entry.old,
          new_commit: entry.new,
          compensation,
          summary,
          reflog_id: id,
        });
        if (merged !== null) {
          announced.reflog_id = id; // one reflog entry per hook record
          recorded.push(merged);
        }
        continue;
      }
      recorded.push(
        await ledger.append({
          id,
          // Reflog times have whole seconds; round up (never past now) so "effects since checkpoint X"
          // cannot miss a push made in the same second just after X.
          time_ms: Math.min(entry.timeMs + 999, Math.max(Date.now(), entry.timeMs)),
          kind: 'git_push',
          target: `${remote}/${branch}${url === undefined ? '' : ` (${stripUrlCredentials(url)})`}`,
          command: `git push ${remote} ${branch}`,
          compensation,
          summary,
          workspace: options.workspace ?? workspaceRoot,
          source: 'reflog',
          status: 'happened',
          checkpoint: options.checkpoint ?? null,
          old_commit: ZERO_COMMIT.test(entry.old) ? null : entry.old,
          new_commit: entry.new,
        }),
      );
    }
  }
  await writeState(statePath, state);
  return recorded;
}

/** The state file's name, in the workspace's folder of the store (beside its ledger). */
export const PUSH_STATE_FILE = 'push-monitor.json';

/**
 * Takes the baseline at the moment a workspace is first seen: every complete reflog line now is
 * history, every line appended later is a push to record. Outside a git repository the baseline
 * is empty, so a repository created there later has only new pushes.
 */
export async function recordPushBaseline(workspaceRoot: string, statePath: string): Promise<void> {
  const state: MonitorState = { version: 1, refs: {} };
  const dirs = findGitDirs(workspaceRoot);
  if (dirs !== null) {
    const logsDir = join(dirs.commonDir, 'logs', 'refs', 'remotes');
    for (const file of await listFiles(logsDir)) {
      let text: string;
      try {
        text = await readTextBounded(file, REFLOG_MAX_BYTES);
      } catch {
        continue; // gone or unreadable: a reflog the scan meets later counts as new, which is what it would be
      }
      state.refs[relative(logsDir, file).split(sep).join('/')] = readPosition(text.slice(0, text.lastIndexOf('\n') + 1));
    }
  }
  await writeState(statePath, state);
}

/** The read position after `read` (whole lines of a reflog). */
function readPosition(read: string): RefState {
  const lines = read.split('\n');
  return { offset: Buffer.byteLength(read), last_line: lines[lines.length - 2] ?? '' };
}

/** How long before its reflog entry a hook may have announced a push (the person may take a while to allow it). */
const ANNOUNCE_WINDOW_MS = 60 * 60 * 1000;

/**
 * The newest hook record announcing a push to `remoteBranch` that is not matched with a reflog
 * entry yet, announced before the entry (reflog times are whole seconds) and not failed, denied or
 * up to date (a push that sent nothing made no reflog entry: a later one is another push).
 */
function matchingHookPush(records: EffectRecord[], remoteBranch: string, entryMs: number): EffectRecord | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r === undefined || r.source !== 'hook' || r.kind !== 'git_push' || r.reflog_id !== undefined) continue;
    if (r.status === 'failed' || r.status === 'denied' || r.status === 'nothing_sent') continue;
    if (r.time_ms > entryMs + 1000 || r.time_ms < entryMs - ANNOUNCE_WINDOW_MS) continue;
    if (r.target === remoteBranch || r.target.startsWith(`${remoteBranch} `)) return r;
  }
  return null;
}

/** The command that puts the remote branch back where it was before the push. */
export function pushCompensation(remote: string, branch: string, oldCommit: string, newCommit: string): string {
  const ref = `refs/heads/${branch}`;
  if (ZERO_COMMIT.test(oldCommit)) return `git push ${remote} --delete ${branch}`;
  return `git push --force-with-lease=${ref}:${newCommit} ${remote} ${oldCommit}:${ref}`;
}

function splitRemoteRef(ref: string, remotes: Map<string, string>): { remote: string; branch: string } {
  // Remote names may contain '/': prefer the longest configured remote that prefixes the path.
  const names = [...remotes.keys()].sort((a, b) => b.length - a.length);
  const name = names.find((n) => ref.startsWith(`${n}/`));
  if (name !== undefined) return { remote: name, branch: ref.slice(name.length + 1) };
  const slash = ref.indexOf('/');
  return slash === -1 ? { remote: ref, branch: '' } : { remote: ref.slice(0, slash), branch: ref.slice(slash + 1) };
}

/** The part of a reflog not read yet; handles a reflog that was rewritten or truncated. */
function unreadPart(text: string, known: RefState | undefined): string {
  if (known === undefined) return text;
  const bytes = Buffer.from(text);
  if (bytes.length >= known.offset) {
    const head = bytes.subarray(0, known.offset).toString('utf8');
    if (known.last_line === '' || head.endsWith(`${known.last_line}\n`)) return bytes.subarray(known.offset).toString('utf8');
  }
  const at = known.last_line === '' ? -1 : text.lastIndexOf(`${known.last_line}\n`);
  if (at !== -1) return text.slice(at + known.last_line.length + 1);
  // The last line we read is gone (expired): take what is newer than it.
  const lastTime = parseReflogLine(known.last_line)?.timeMs ?? 0;
  return text
    .split('\n')
    .filter((l) => (parseReflogLine(l)?.timeMs ?? 0) > lastTime)
    .map((l) => `${l}\n`)
    .join('');
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(path)));
    else if (e.isFile()) out.push(path);
  }
  return out.sort();
}

async function readState(path: string): Promise<MonitorState | null> {
  let text: string;
  try {
    text = await readTextBounded(path, REFLOG_MAX_BYTES);
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && (parsed as { version?: unknown }).version === 1) {
      const refs = (parsed as { refs?: unknown }).refs;
      if (typeof refs === 'object' && refs !== null) return { version: 1, refs: refs as Record<string, RefState> };
    }
  } catch {
    // fall through
  }
  // Unreadable state: start over as a first scan (sinceMs bounds it; ids keep records unique).
  return null;
}

async function writeState(path: string, state: MonitorState): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(state)}\n`, { createDir: true, mode: 0o600 });
}

/** Where the monitor keeps its read positions for a workspace: beside its ledger. */
export function pushStatePath(ledger: EffectLedger): string {
  return join(dirname(ledger.path), PUSH_STATE_FILE);
}
