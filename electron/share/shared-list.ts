// Teammates' checkpoints as the engine's records, read from the share logs a
// pull fetched (refs/chronoscope-shared/<ws-id>/<person>/<machine>/<clone>/log).
// A share log is a first-parent chain of commits, one per push; each one's
// other parents are the checkpoint commits that push shared, and its message
// names who pushed them (share-contract.md). Commits and trees are always
// here after a pull (only blobs are left on the remote), so a listing never
// touches the network.
//
// Read once per set of share-log tips and kept in memory: a pull moves a tip
// and the next listing reads them again; otherwise a listing of a workspace
// that was pulled costs one for-each-ref (one never pulled, a stat).
import fs from 'node:fs/promises';
import type { Checkpoint, SharedFrom } from '../../shared/model.js';
import type { WsContext } from '../engine/layout/context.js';
import type { CheckpointRecord } from '../engine/layout/message.js';
import { git, gitStdin } from '../engine/git/git-runner.js';
import { recordFromCommit } from '../engine/list.js';
import { sanitizeLine } from '../engine/layout/message.js';
import { sharedPrefixOf } from './namespace.js';
import { pullStateFile } from './pull-state.js';
import { storeGitContext } from './remote-git.js';

export const SHARE_LOG_SUBJECT = 'chronoscope share log';

interface LogInfo {
  person?: string;
  email?: string;
  machine?: string;
}

interface Cached {
  key: string;
  records: CheckpointRecord[];
}

const cache = new Map<string, Cached>();

const RECORD_END = '\0\x01\n';

/**
 * The share logs of this workspace's teammates, by ref name: their tips. A workspace never pulled
 * (no share-pull.json, written before a pull fetches) has none: one stat, never a git process, so
 * a listing of the newest checkpoints stays git-free (list.ts).
 */
async function shareLogs(ctx: WsContext): Promise<[string, string][]> {
  if (!(await fs.stat(pullStateFile(ctx.layout.dir)).then(() => true, () => false))) return [];
  const out = await git(storeGitContext(ctx.store.gitDir), ['for-each-ref', '--format=%(refname) %(objectname)', sharedPrefixOf(ctx.id)]);
  return out
    .split('\n')
    .map((line) => line.split(' ') as [string, string])
    .filter(([name, id]) => name?.endsWith('/log') && id !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
}

/** Every teammate's checkpoint of this workspace, newest first. */
export async function sharedRecords(ctx: WsContext, warn?: (message: string) => void): Promise<CheckpointRecord[]> {
  const logs = await shareLogs(ctx);
  if (logs.length === 0) return [];
  const key = logs.map(([n, id]) => `${n}=${id}`).join('\n');
  const slot = `${ctx.store.gitDir}\0${ctx.id}`;
  const known = cache.get(slot);
  if (known?.key === key) return known.records;
  const lanes: CheckpointRecord[][] = [];
  for (const [refname] of logs) {
    try {
      lanes.push(await laneOf(ctx, refname));
    } catch (err) {
      warn?.(`shared checkpoints of ${refname.slice(sharedPrefixOf(ctx.id).length, -'/log'.length)} left out: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
    }
  }
  const records = lanes.flat().sort((a, b) => b.checkpoint.time_ms - a.checkpoint.time_ms);
  cache.set(slot, { key, records });
  return records;
}

/** One clone's shared checkpoints, newest first, each with the tree before it in that clone. */
async function laneOf(ctx: WsContext, logRef: string): Promise<CheckpointRecord[]> {
  const gitCtx = storeGitContext(ctx.store.gitDir);
  const [, , person = '', machine = '', clone = ''] = logRef.slice('refs/'.length).split('/');
  const out = await git(gitCtx, ['log', '--first-parent', '--format=%H%x00%P%x00%B%x00%x01', logRef]);
  const entries = out
    .split(RECORD_END)
    .map((chunk) => chunk.replace(/^\n/, ''))
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const [id = '', parents = '', body = ''] = chunk.split('\0');
      return { id, parents: parents.split(' ').filter(Boolean), body };
    })
    .filter((e) => e.body.startsWith(SHARE_LOG_SUBJECT));
  const logIds = new Set(entries.map((e) => e.id));
  let from: SharedFrom = { person, email: person, machine, clone };
  const newest = entries[0];
  if (newest) {
    const info = logInfo(newest.body);
    from = { person: info.person || info.email || person, email: info.email || person, machine: info.machine || machine, clone };
  }
  const ids = [...new Set(entries.flatMap((e) => e.parents.filter((p) => !logIds.has(p))))];
  if (ids.length === 0) return [];
  const commits = await gitStdin(gitCtx, ['log', '--no-walk=unsorted', '--stdin', '--format=%H%x00%T%x00%B%x00%x01'], { input: `${ids.join('\n')}\n` });
  const records = commits.stdout
    .toString('utf8')
    .split(RECORD_END)
    .map((chunk) => chunk.replace(/^\n/, ''))
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const [id = '', tree = '', contents = ''] = chunk.split('\0');
      const r = recordFromCommit(id, `${logRef}@${id}`, tree, contents);
      const checkpoint: Checkpoint = { ...r.checkpoint, shared: from };
      return { ...r, checkpoint };
    })
    .sort((a, b) => b.checkpoint.time_ms - a.checkpoint.time_ms);
  return records.map((r, i) => ({ ...r, shared: { parentTree: records[i + 1]?.tree ?? null } }));
}

/** The JSON a share-log commit's message carries after its subject; {} when it cannot be read. */
function logInfo(body: string): LogInfo {
  const at = body.indexOf('{');
  if (at < 0) return {};
  try {
    const value: unknown = JSON.parse(body.slice(at));
    if (typeof value !== 'object' || value === null) return {};
    const o = value as Record<string, unknown>;
    // What a teammate's machine wrote: one printable line, bounded, before any terminal or window shows it.
    const text = (k: string): string | undefined => (typeof o[k] === 'string' ? sanitizeLine(o[k] as string, 120) || undefined : undefined);
    const info: LogInfo = {};
    const person = text('person');
    const email = text('email');
    const machine = text('machine');
    if (person) info.person = person;
    if (email) info.email = email;
    if (machine) info.machine = machine;
    return info;
  } catch {
    return {};
  }
}
