// Hermes Agent's own /rollback history of a workspace, read strictly
// read-only. Hermes keeps one shared bare repository,
// $HERMES_HOME/checkpoints/store, and per working directory a ref
// refs/hermes/<first 16 hex of sha256(absolute workdir)> that is a chain of
// commits (message = the reason, "before write_file", author date = the time);
// projects/<hash>.json names the workdir.
//
// Read-only means: only git commands that read (log, ls-tree, pack-objects
// --stdout), with an explicit --git-dir and the engine's isolated environment
// (git-env.ts: GIT_OPTIONAL_LOCKS=0, no user config, no hooks), no work tree
// and no index — never Hermes' own index files — and nothing written into the
// store, not even a lock file.
//
// Hermes rewrites its commits when it prunes (it re-commits the kept ones with
// the same tree, dates and subject onto new parents), so nothing here depends
// on a Hermes commit id: a checkpoint's id is derived from what a rewrite
// keeps (tree, author time, subject), and commits are looked up afresh, by
// that id, whenever one is used.
import { redactSecrets } from '../../../shared/redact.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Checkpoint, CheckpointStats, Trigger } from '../../../shared/model.js';
import type { Settings } from '../../../shared/settings.js';
import type { GitContext } from '../git/git-env.js';
import { git } from '../git/git-runner.js';

/** A problem with Hermes' store (damaged, unreadable): callers turn it into a warning. */
export class HermesStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HermesStoreError';
  }
}

export interface HermesRecord {
  checkpoint: Checkpoint;
  /** The commit in Hermes' store as of this reading (changes when Hermes prunes). */
  commit: string;
  tree: string;
  /** The tree of the commit before it in the chain; null for the first one. */
  parentTree: string | null;
}

export interface HermesLane {
  /** Hermes' store (a bare repository). */
  store: string;
  ref: string;
  /** Newest first. */
  records: HermesRecord[];
}

/** How many commits of a chain are read at most (Hermes keeps 20 by default). */
const MAX_CHAIN = 1000;

/** $HERMES_HOME as Hermes resolves it: the setting, else the environment, else ~/.hermes. */
export function hermesHome(settings: Pick<Settings, 'hermes_home'>, env: NodeJS.ProcessEnv = process.env): string {
  const configured = settings.hermes_home ?? env['HERMES_HOME'];
  if (configured) return path.resolve(configured.startsWith('~/') ? path.join(os.homedir(), configured.slice(2)) : configured);
  return path.join(os.homedir(), '.hermes');
}

export function hermesStoreDir(settings: Pick<Settings, 'hermes_home'>, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(hermesHome(settings, env), 'checkpoints', 'store');
}

/** Hermes' project hash: the first 16 hex digits of sha256 of the absolute, resolved path. */
export function hermesProjectHash(root: string): string {
  return createHash('sha256').update(root).digest('hex').slice(0, 16);
}

/** Files that change whenever Hermes adds or rewrites a checkpoint of this workspace (a cheap "look now" signal). */
export function hermesSignalFiles(root: string, settings: Pick<Settings, 'hermes_home'>): string[] {
  const store = hermesStoreDir(settings);
  return [path.join(store, 'refs', 'hermes', hermesProjectHash(root)), path.join(store, 'packed-refs')];
}

/** The git context for Hermes' store: git dir only (no work tree, no index), the engine's isolated environment. */
export function hermesGit(store: string): GitContext {
  return { gitDir: store, cwd: store };
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The commit a ref points at, read from the loose ref file or packed-refs in
 * Node (no git process: the live feed asks this every second). Undefined
 * when the ref does not exist.
 */
async function readRef(store: string, ref: string): Promise<string | undefined> {
  let loose: string | null = null;
  try {
    loose = await fs.readFile(path.join(store, ...ref.split('/')), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new HermesStoreError(`cannot read ${ref}: ${(err as Error).message}`);
  }
  if (loose !== null) {
    const value = loose.trim();
    if (!OID.test(value)) throw new HermesStoreError(`${ref} does not hold a commit id`);
    return value;
  }
  const packed = await fs.readFile(path.join(store, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [oid = '', name] = line.split(' ');
    if (name === ref && OID.test(oid)) return oid;
  }
  return undefined;
}

/** True when projects/<hash>.json, if there, names this workspace (it always should: the hash is of the path). */
async function projectMatches(store: string, hash: string, root: string): Promise<boolean> {
  let raw: string;
  try {
    raw = await fs.readFile(path.join(store, 'projects', `${hash}.json`), 'utf8');
  } catch {
    return true; // older stores had no project file; the ref's name already is the path's hash
  }
  try {
    const workdir = (JSON.parse(raw.replace(/^\uFEFF/, '')) as { workdir?: unknown }).workdir;
    if (typeof workdir !== 'string' || workdir === '') return true;
    const real = await fs.realpath(workdir).catch(() => path.resolve(workdir));
    return real === root;
  } catch {
    return true; // a damaged project file does not hide history the ref still holds
  }
}

/** The id a Hermes checkpoint keeps through Hermes' rewrites: what a rewrite preserves, hashed. */
export function hermesCheckpointId(tree: string, authorSeconds: number, subject: string): string {
  return `h${createHash('sha256').update(`${tree}\0${authorSeconds}\0${subject}`).digest('hex').slice(0, 16)}`;
}

/** "before terminal: npm test" → terminal; Hermes' own pre-rollback snapshot is its safety checkpoint. */
function classify(subject: string): { trigger: Trigger; tool?: string } {
  if (/^pre-rollback snapshot\b/.test(subject)) return { trigger: 'safety' };
  const tool = /^before ([A-Za-z0-9_.-]+)/.exec(subject)?.[1];
  return tool ? { trigger: 'hook', tool } : { trigger: 'hook' };
}

function parseShortstat(text: string): CheckpointStats {
  const count = (word: RegExp): number => Number(word.exec(text)?.[1] ?? 0);
  return { files: count(/(\d+) files? changed/), insertions: count(/(\d+) insertions?\(\+\)/), deletions: count(/(\d+) deletions?\(-\)/) };
}

const laneCache = new Map<string, { tip: string; lane: HermesLane }>();

/**
 * Hermes' checkpoints of the workspace at `root` (its real path), newest first;
 * null when Hermes has none for it (no store, no ref: the usual case). Throws
 * HermesStoreError when the store is there but cannot be read.
 */
export async function readHermesLane(root: string, settings: Pick<Settings, 'hermes_home'>): Promise<HermesLane | null> {
  const store = hermesStoreDir(settings);
  const st = await fs.stat(store).catch(() => null);
  if (!st) {
    if (settings.hermes_home) throw new HermesStoreError(`no Hermes checkpoint store at ${store} (setting hermes_home)`);
    return null;
  }
  if (!st.isDirectory()) throw new HermesStoreError(`${store} is not a folder`);
  const hash = hermesProjectHash(root);
  const ref = `refs/hermes/${hash}`;
  const tip = await readRef(store, ref);
  if (tip === undefined || !(await projectMatches(store, hash, root))) return null;
  if (tip.length !== 40) throw new HermesStoreError(`${store} uses SHA-256 object ids, which Chronoscope's store cannot hold`);
  const key = `${store}\0${ref}`;
  const cached = laneCache.get(key);
  if (cached?.tip === tip) return cached.lane;

  let out: string;
  try {
    // %x01 starts a commit; the subject is one line by definition; --shortstat follows.
    // Nothing the store's own config or attributes name may run: no textconv,
    // external diff or signature check (git log would otherwise honour them).
    out = await git(hermesGit(store), [
      'log', '--first-parent', '--root', `--max-count=${MAX_CHAIN}`, '--no-color', '--no-textconv', '--no-ext-diff', '--no-show-signature', '--no-mailmap',
      '--format=%x01%H %T %at%x00%s', '--shortstat', tip,
    ]);
  } catch (err) {
    throw new HermesStoreError(`cannot read ${ref} in ${store}: ${(err as Error).message}`);
  }
  const commits: { commit: string; tree: string; at: number; subject: string; stats: CheckpointStats }[] = [];
  for (const chunk of out.split('\x01')) {
    if (chunk.trim() === '') continue;
    const newline = chunk.indexOf('\n');
    const head = newline < 0 ? chunk : chunk.slice(0, newline);
    const [ids = '', subject = ''] = head.split('\0');
    const [commit = '', tree = '', at = ''] = ids.split(' ');
    if (!OID.test(commit) || !OID.test(tree) || !/^\d+$/.test(at)) throw new HermesStoreError(`unexpected git log output for ${ref} in ${store}`);
    commits.push({ commit, tree, at: Number(at), subject, stats: parseShortstat(newline < 0 ? '' : chunk.slice(newline)) });
  }
  const seen = new Set<string>();
  const records: HermesRecord[] = [];
  commits.forEach((c, i) => {
    const id = hermesCheckpointId(c.tree, c.at, c.subject);
    if (seen.has(id)) return; // same tree, second and reason twice: one checkpoint (the newest)
    seen.add(id);
    const time_ms = c.at * 1000;
    const { trigger, tool } = classify(c.subject);
    const checkpoint: Checkpoint = {
      id,
      time: new Date(time_ms).toISOString(),
      time_ms,
      reason: redactSecrets(c.subject),
      trigger,
      agent: 'hermes',
      origin: 'hermes',
      stats: c.stats,
      skipped: [],
      pinned: false,
    };
    if (tool !== undefined) checkpoint.tool = tool;
    records.push({ checkpoint, commit: c.commit, tree: c.tree, parentTree: commits[i + 1]?.tree ?? null });
  });
  const lane: HermesLane = { store, ref, records };
  if (laneCache.size > 64) laneCache.clear();
  laneCache.set(key, { tip, lane });
  return lane;
}
