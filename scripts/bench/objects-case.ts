// `bench --objects`: our object layer (electron/engine/objects/, trees/)
// against isomorphic-git's low-level object API, on the bench's store after
// its first snapshot, side by side in one run. Asked once (should the
// hand-written loose/pack code give way to a kept library?); the figures are
// in electron/engine/objects/README.md. Each side works in a copy of the
// store of its own, so neither sees the other's objects; afterwards the ids
// both wrote must be the same, the bytes behind them identical (read back by
// `git cat-file --batch`), and `git fsck --full` clean on both copies.
//
// What "ours" runs is the code edit10_paths and restore10 run, minus the
// engine's in-memory cache of recent objects (recent-objects.ts: it would sit
// on top of either side): trees read by object-read.ts (loose, or our packs)
// and parsed by tree-read.ts, blobs by object-read.ts, git's shared reader
// only for what Node cannot read (counted); writes through one ObjectBatch
// (a pack from 3 objects on, fsynced), trees by tree-write.ts, the commit by
// loose-write.ts' commitBody. isomorphic-git: readTree/readBlob with one
// `cache` object per run shared by its operations, writeBlob, writeTree,
// writeCommit (loose objects, no fsync: it has none). Both sides memoise the
// trees they read within one operation, as the engine's readers do.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import type { EngineSide } from './engine-side.js';
import { median } from './report.js';
import { editFiles, pickFiles, type GeneratedWorkspace } from './workspace.js';
import { GIT_IDENTITY, setFsyncForMeasurement, type GitContext } from '../../electron/engine/git/git-env.js';
import { sharedRead } from '../../electron/engine/git/cat-file-server.js';
import { commitBody, objectId } from '../../electron/engine/objects/loose-write.js';
import { ObjectBatch } from '../../electron/engine/objects/object-batch.js';
import { objectInNode, wholeObjectInNode } from '../../electron/engine/objects/object-read.js';
import { encodeMessage } from '../../electron/engine/layout/message.js';
import { parseTree, TREE_MODE, type TreeEntry } from '../../electron/engine/trees/tree-read.js';
import { changeTree, writeUpdatedTree, type ChangeNode, type PathChange } from '../../electron/engine/trees/tree-write.js';
import { WorkspaceImpl } from '../../electron/engine/workspace.js';

export const OBJECT_CASES = [
  'obj_read_packed',
  'obj_read_packed_warm',
  'obj_write_blob',
  'obj_write_tree_commit',
  'edit10_paths_objects',
  'edit10_paths_objects_nofsync',
  'restore10_objects',
] as const;
type ObjectCase = (typeof OBJECT_CASES)[number];

export interface ObjectsRow {
  case: ObjectCase;
  ours_ms: number;
  isogit_ms: number;
  ratio: number;
}

export interface ObjectsBench {
  runs: number;
  rows: ObjectsRow[];
  /** The engine's own cases, measured in this run (medians). */
  e2e: { edit10_paths_ms: number; restore10_ms: number };
  /** (ours e2e − ours objects + isomorphic-git objects) / ours e2e. */
  projected: { edit10_paths: number; restore10: number };
  /** Where the objects read by obj_read_packed lived, and how many ours had to ask git for. */
  reads: { packed: number; loose: number; oursAskedGit: number };
  store: { packs: number; packMb: number; loose: number; sizesMb: number[] };
  checks: { sameIds: boolean; identicalBytes: boolean; objects: number; fsckOurs: string; fsckIsogit: string };
}

const BOUND = 1.3;

/** One side's object layer: the operations both implement. */
interface Side {
  /** A fresh memo of trees read, per operation; isomorphic-git: its run's cache object (or the kept one: warm). */
  begin(warm?: boolean): void;
  readTree(oid: string): Promise<TreeEntry[]>;
  readBlob(oid: string): Promise<Buffer>;
  writeBlobs(bodies: readonly Buffer[]): Promise<string[]>;
  /** Trees along the changed paths (read from `base`) and one parentless commit; returns [tree, commit]. */
  writeTreeCommit(base: string, changes: ReadonlyMap<string, PathChange>, message: string, timeMs: number): Promise<[string, string]>;
  /** Blobs, trees and commit, as one snapshot writes them; returns [tree, commit]. */
  writeSnapshot(base: string, files: ReadonlyMap<string, Buffer>, message: string, timeMs: number): Promise<[string, string]>;
}

class Ours implements Side {
  private trees = new Map<string, Promise<TreeEntry[]>>();
  askedGit = 0;
  private readonly ctx: GitContext;

  constructor(readonly gitDir: string) {
    this.ctx = { gitDir, cwd: gitDir };
  }

  begin(): void {
    this.trees = new Map();
  }

  private async body(oid: string, whole: boolean): Promise<Buffer> {
    const found = whole ? await wholeObjectInNode(this.gitDir, oid) : await objectInNode(this.gitDir, oid);
    if (found?.data) return found.data;
    this.askedGit++;
    const read = await sharedRead(this.ctx, oid, Infinity);
    if (!read?.data) throw new Error(`ours: object ${oid} missing`);
    return read.data;
  }

  readTree(oid: string): Promise<TreeEntry[]> {
    let known = this.trees.get(oid);
    if (!known) {
      known = this.body(oid, true).then(parseTree);
      this.trees.set(oid, known);
    }
    return known;
  }

  readBlob(oid: string): Promise<Buffer> {
    return this.body(oid, false);
  }

  async writeBlobs(bodies: readonly Buffer[]): Promise<string[]> {
    const batch = new ObjectBatch(this.gitDir);
    try {
      const oids = bodies.map((b) => batch.put('blob', b, objectId('blob', b)));
      await batch.seal();
      return oids;
    } finally {
      await batch.close();
    }
  }

  async writeTreeCommit(base: string, changes: ReadonlyMap<string, PathChange>, message: string, timeMs: number): Promise<[string, string]> {
    const batch = new ObjectBatch(this.gitDir);
    try {
      const tree = await writeUpdatedTree(this.ctx, base, changes, (oid) => this.readTree(oid), batch);
      const commit = batch.put('commit', commitBody(tree, message, GIT_IDENTITY, timeMs));
      await batch.seal();
      return [tree, commit];
    } finally {
      await batch.close();
    }
  }

  async writeSnapshot(base: string, files: ReadonlyMap<string, Buffer>, message: string, timeMs: number): Promise<[string, string]> {
    // As tree-update.ts: each path's old entry read first, blobs hashed and put, trees, commit; one batch sealed.
    const batch = new ObjectBatch(this.gitDir);
    try {
      await Promise.all([...files.keys()].map((rel) => entryAt(this, base, rel)));
      const changes = new Map<string, PathChange>();
      for (const [rel, data] of files) changes.set(rel, { mode: '100644', oid: batch.put('blob', data, objectId('blob', data)) });
      const tree = await writeUpdatedTree(this.ctx, base, changes, (oid) => this.readTree(oid), batch);
      const commit = batch.put('commit', commitBody(tree, message, GIT_IDENTITY, timeMs));
      await batch.seal();
      return [tree, commit];
    } finally {
      await batch.close();
    }
  }
}

const ISO_TREE = '040000';

class IsoGit implements Side {
  private cache: object = {};
  /** One per run, shared by that run's operations (obj_read_packed, the first of them, loads the packs it needs). */
  private runCache: object = {};
  private readonly warmCache: object = {};
  private trees = new Map<string, Promise<TreeEntry[]>>();

  constructor(readonly gitdir: string) {}

  newRun(): void {
    this.runCache = {};
  }

  begin(warm = false): void {
    this.cache = warm ? this.warmCache : this.runCache;
    this.trees = new Map();
  }

  readTree(oid: string): Promise<TreeEntry[]> {
    let known = this.trees.get(oid);
    if (!known) {
      known = git.readTree({ fs: nodeFs, gitdir: this.gitdir, oid, cache: this.cache }).then(({ tree }) =>
        tree.map((e) => ({ mode: e.mode === ISO_TREE ? TREE_MODE : e.mode, name: Buffer.from(e.path, 'utf8'), oid: e.oid })),
      );
      this.trees.set(oid, known);
    }
    return known;
  }

  async readBlob(oid: string): Promise<Buffer> {
    const { blob } = await git.readBlob({ fs: nodeFs, gitdir: this.gitdir, oid, cache: this.cache });
    return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  }

  writeBlobs(bodies: readonly Buffer[]): Promise<string[]> {
    return Promise.all(bodies.map((blob) => git.writeBlob({ fs: nodeFs, gitdir: this.gitdir, blob })));
  }

  private async rewrite(tree: string | null, node: ChangeNode): Promise<string | null> {
    const entries = new Map<string, TreeEntry>();
    for (const e of tree === null ? [] : await this.readTree(tree)) entries.set(e.name.toString('utf8'), e);
    await Promise.all(
      [...node.children].map(async ([name, child]) => {
        if (child.children.size === 0) {
          const change = child.leaf ?? null;
          if (change === null) entries.delete(name);
          else entries.set(name, { mode: change.mode, name: Buffer.from(name), oid: change.oid });
          return;
        }
        const existing = entries.get(name);
        const oid = await this.rewrite(existing && existing.mode === TREE_MODE ? existing.oid : null, child);
        if (oid === null) entries.delete(name);
        else entries.set(name, { mode: TREE_MODE, name: Buffer.from(name), oid });
      }),
    );
    if (entries.size === 0) return null;
    const tree2 = [...entries.values()].map((e) => ({
      mode: e.mode === TREE_MODE ? ISO_TREE : e.mode,
      path: e.name.toString('utf8'),
      oid: e.oid,
      type: (e.mode === TREE_MODE ? 'tree' : e.mode === '160000' ? 'commit' : 'blob') as 'tree' | 'commit' | 'blob',
    }));
    return git.writeTree({ fs: nodeFs, gitdir: this.gitdir, tree: tree2 });
  }

  async writeTreeCommit(base: string, changes: ReadonlyMap<string, PathChange>, message: string, timeMs: number): Promise<[string, string]> {
    const tree = (await this.rewrite(base, changeTree(changes))) ?? (await git.writeTree({ fs: nodeFs, gitdir: this.gitdir, tree: [] }));
    const who = { ...GIT_IDENTITY, timestamp: Math.floor(timeMs / 1000), timezoneOffset: new Date(timeMs).getTimezoneOffset() };
    const commit = await git.writeCommit({ fs: nodeFs, gitdir: this.gitdir, commit: { tree, parent: [], author: who, committer: who, message } });
    return [tree, commit];
  }

  async writeSnapshot(base: string, files: ReadonlyMap<string, Buffer>, message: string, timeMs: number): Promise<[string, string]> {
    const [, oids] = await Promise.all([Promise.all([...files.keys()].map((rel) => entryAt(this, base, rel))), this.writeBlobs([...files.values()])]);
    const changes = new Map<string, PathChange>();
    [...files.keys()].forEach((rel, i) => changes.set(rel, { mode: '100644', oid: oids[i] ?? '' }));
    return this.writeTreeCommit(base, changes, message, timeMs);
  }
}

/** The entry at `rel` under `tree` (every tree on the way read), or null. */
async function entryAt(side: Side, tree: string, rel: string): Promise<TreeEntry | null> {
  let at = tree;
  const parts = rel.split('/');
  for (const [i, part] of parts.entries()) {
    const entry = (await side.readTree(at)).find((e) => e.name.toString('utf8') === part);
    if (!entry) return null;
    if (i === parts.length - 1) return entry;
    if (entry.mode !== TREE_MODE) return null;
    at = entry.oid;
  }
  return null;
}

/** What restore10 reads: the trees on each path in the target and the blob at its end. */
async function readPaths(side: Side, tree: string, paths: readonly string[]): Promise<Buffer[]> {
  return Promise.all(
    paths.map(async (rel) => {
      const entry = await entryAt(side, tree, rel);
      if (!entry) throw new Error(`${rel} is not in tree ${tree}`);
      return side.readBlob(entry.oid);
    }),
  );
}

function gitOut(gitDir: string, args: string[], input?: string): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    input,
    maxBuffer: 1 << 30,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

function allObjects(gitDir: string): Set<string> {
  const out = gitOut(gitDir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).toString('utf8');
  return new Set(out.split('\n').filter((l) => l.length > 0));
}

function fsck(gitDir: string): string {
  try {
    const out = execFileSync('git', ['--git-dir', gitDir, 'fsck', '--full', '--no-dangling', '--no-progress'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
    return out.trim() === '' ? 'clean' : `exit 0, but: ${out.trim().split('\n').slice(0, 3).join('; ')}`;
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string };
    return `FAILED (exit ${e.status ?? '?'}): ${`${e.stdout ?? ''}${e.stderr ?? ''}`.trim().split('\n').slice(0, 3).join('; ')}`;
  }
}

function storeShape(gitDir: string): ObjectsBench['store'] {
  const packDir = join(gitDir, 'objects', 'pack');
  const packs = nodeFs.readdirSync(packDir).filter((n) => n.endsWith('.pack'));
  const sizes = packs.map((p) => nodeFs.statSync(join(packDir, p)).size).sort((a, b) => b - a);
  const packBytes = sizes.reduce((n, size) => n + size, 0);
  let loose = 0;
  for (const d of nodeFs.readdirSync(join(gitDir, 'objects'))) if (/^[0-9a-f]{2}$/.test(d)) loose += nodeFs.readdirSync(join(gitDir, 'objects', d)).length;
  const mb = (n: number): number => Math.round((n / (1 << 20)) * 10) / 10;
  return { packs: packs.length, packMb: mb(packBytes), loose, sizesMb: sizes.map(mb) };
}

const timed = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
};

export interface ObjectsInput {
  engineSide: EngineSide;
  ws: GeneratedWorkspace;
  dir: string;
  runs: number;
  round: number;
  progress: (message: string) => void;
}

export async function measureObjects({ engineSide, ws, dir, runs, round: startRound, progress }: ObjectsInput): Promise<ObjectsBench> {
  if (!(engineSide.workspace instanceof WorkspaceImpl)) throw new Error('--objects needs the engine workspace implementation');
  const ctx = engineSide.workspace.ctx;
  let round = startRound;

  // The engine's own edit10_paths and restore10, as bench.ts runs them, in this run.
  progress('objects: edit10_paths and restore10 through the engine, for the projection');
  const editMs: number[] = [];
  let target: string | null = null;
  for (let run = 0; run < runs; run++) {
    const files = pickFiles(ws, 10, round++);
    editFiles(ws.root, files, `objects edit10_paths ${run}`);
    const [ms, id] = await timed(() => engineSide.snapshot('edit10_paths', files));
    if (id === null) throw new Error('edit10_paths took no checkpoint');
    editMs.push(ms);
    target = id;
    await engineSide.settled();
  }
  if (target === null) throw new Error('no checkpoint to restore');
  const restoreMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const files = pickFiles(ws, 10, round++);
    editFiles(ws.root, files, `objects restore10 ${run}`);
    restoreMs.push((await timed(() => engineSide.restore(target as string, files)))[0]);
    await engineSide.settled();
  }

  // Two copies of the store as it now is: one for each side.
  const gitDir = ctx.store.gitDir;
  const targetTree = gitOut(gitDir, ['rev-parse', `${target}^{tree}`]).toString('utf8').trim();
  const store = storeShape(gitDir);
  const oursDir = join(dir, 'objects-ours.git');
  const isoDir = join(dir, 'objects-isogit.git');
  progress(`objects: copying the store (${store.packs} packs, ${store.packMb} MB; ${store.loose} loose objects) for each side`);
  cpSync(gitDir, oursDir, { recursive: true });
  cpSync(gitDir, isoDir, { recursive: true });
  const before = allObjects(oursDir);
  const ours = new Ours(oursDir);
  const iso = new IsoGit(isoDir);
  // The warm variant's cache: loaded once, untimed (a long-lived process that keeps it).
  iso.begin(true);
  await readPaths(iso, targetTree, pickFiles(ws, 1, round++));

  const times = new Map<ObjectCase, { ours: number[]; iso: number[] }>(OBJECT_CASES.map((c) => [c, { ours: [], iso: [] }]));
  const ids = { ours: [] as string[], iso: [] as string[] };
  const reads = { packed: 0, loose: 0, oursAskedGit: 0 };
  const packedIds = new Set<string>();

  const both = async <T>(run: number, name: ObjectCase, fn: (side: Side) => Promise<T>, opts: { warm?: boolean; fsync?: boolean } = {}): Promise<[T, T]> => {
    const results: { ours?: T; iso?: T } = {};
    const order: Array<['ours' | 'iso', Side]> = [
      ['ours', ours],
      ['iso', iso],
    ];
    if (run % 2 === 1) order.reverse();
    for (const [key, side] of order) {
      side.begin(opts.warm);
      if (opts.fsync === false && key === 'ours') setFsyncForMeasurement(false);
      try {
        const [ms, value] = await timed(() => fn(side));
        times.get(name)?.[key].push(ms);
        results[key] = value;
      } finally {
        setFsyncForMeasurement(true);
      }
    }
    return [results.ours as T, results.iso as T];
  };
  const collect = (o: string[], i: string[]): void => {
    ids.ours.push(...o);
    ids.iso.push(...i);
  };
  const contents = (files: readonly string[], tag: string): Map<string, Buffer> =>
    new Map(files.map((rel) => [rel, Buffer.concat([readFileSync(join(ws.root, rel)), Buffer.from(`// ${tag}\n`)])]));
  const base = targetTree;

  progress(`objects: ${OBJECT_CASES.length} cases, ${runs} runs each side`);
  for (let run = 0; run < runs; run++) {
    iso.newRun();
    // obj_read_packed: what restore10 reads, 10 other files each run.
    const readFiles = pickFiles(ws, 10, round++);
    const [a, b] = await both(run, 'obj_read_packed', (side) => readPaths(side, targetTree, readFiles));
    if (!a.every((buf, i) => buf.equals(b[i] ?? Buffer.alloc(0)))) throw new Error('obj_read_packed: the sides read different bytes');
    // Where those objects live (untimed).
    const seen = new Ours(oursDir);
    for (const rel of readFiles) {
      let at = targetTree;
      for (const part of rel.split('/')) {
        const e = (await seen.readTree(at)).find((x) => x.name.toString('utf8') === part);
        if (!e) break;
        for (const oid of [at, e.oid]) {
          if (packedIds.has(oid)) continue;
          packedIds.add(oid);
          if (nodeFs.existsSync(join(oursDir, 'objects', oid.slice(0, 2), oid.slice(2)))) reads.loose++;
          else reads.packed++;
        }
        at = e.oid;
      }
    }
    const warmFiles = pickFiles(ws, 10, round++);
    await both(run, 'obj_read_packed_warm', (side) => readPaths(side, targetTree, warmFiles), { warm: true });

    // obj_write_blob, then obj_write_tree_commit over those blobs.
    const blobFiles = contents(pickFiles(ws, 10, round++), `objects blob ${run}`);
    const [ob, ib] = await both(run, 'obj_write_blob', (side) => side.writeBlobs([...blobFiles.values()]));
    collect(ob, ib);
    const changes = new Map<string, PathChange>([...blobFiles.keys()].map((rel, i) => [rel, { mode: '100644', oid: ob[i] ?? '' }]));
    let timeMs = Date.now();
    let message = encodeMessage(`objects tree ${run}`, { v: 1, trigger: 'manual', time_ms: timeMs, stats: { files: 10, insertions: 10, deletions: 0 }, skipped: [], prev: null });
    const [otc, itc] = await both(run, 'obj_write_tree_commit', (side) => side.writeTreeCommit(base, changes, message, timeMs));
    collect(otc, itc);

    // edit10_paths' object work: one snapshot's reads and writes (with and without our fsyncs).
    for (const name of ['edit10_paths_objects', 'edit10_paths_objects_nofsync'] as const) {
      const files = contents(pickFiles(ws, 10, round++), `objects ${name} ${run}`);
      timeMs = Date.now();
      message = encodeMessage(name, { v: 1, trigger: 'manual', time_ms: timeMs, stats: { files: 10, insertions: 10, deletions: 0 }, skipped: [], prev: null });
      const [os, is] = await both(run, name, (side) => side.writeSnapshot(base, files, message, timeMs), { fsync: name === 'edit10_paths_objects' });
      collect(os, is);
    }

    // restore10's object work: the safety checkpoint (10 dirty files), the plan's reads
    // (the target's trees and blobs on those paths, the safety tree's), the restore checkpoint.
    const restoreFiles = pickFiles(ws, 10, round++);
    const dirty = contents(restoreFiles, `objects restore10 ${run}`);
    const t1 = Date.now();
    const m1 = encodeMessage('safety', { v: 1, trigger: 'safety', time_ms: t1, stats: { files: 10, insertions: 10, deletions: 0 }, skipped: [], prev: null });
    const m2 = encodeMessage('restored', { v: 1, trigger: 'restore', time_ms: t1 + 1, stats: { files: 10, insertions: 0, deletions: 10 }, skipped: [], prev: null });
    const [or, ir] = await both(run, 'restore10_objects', async (side) => {
      const [safetyTree, safetyCommit] = await side.writeSnapshot(base, dirty, m1, t1);
      const [blobs] = await Promise.all([readPaths(side, targetTree, restoreFiles), Promise.all(restoreFiles.map((rel) => entryAt(side, safetyTree, rel)))]);
      const restored = new Map(restoreFiles.map((rel, i) => [rel, blobs[i] ?? Buffer.alloc(0)]));
      const [tree, commit] = await side.writeSnapshot(safetyTree, restored, m2, t1 + 1);
      return [safetyTree, safetyCommit, tree, commit];
    });
    collect(or, ir);
  }

  // The "tested against real git" leg: same ids, identical bytes, fsck clean on both copies.
  progress('objects: comparing what both sides wrote; git fsck --full on both copies');
  // Every object either side added to its copy (not only the ids the operations returned): the same set, the same bytes.
  const addedOurs = [...allObjects(oursDir)].filter((oid) => !before.has(oid)).sort();
  const addedIso = [...allObjects(isoDir)].filter((oid) => !before.has(oid)).sort();
  const sameIds =
    ids.ours.length === ids.iso.length &&
    ids.ours.every((oid, i) => oid === ids.iso[i]) &&
    addedOurs.length === addedIso.length &&
    addedOurs.every((oid, i) => oid === addedIso[i]);
  const unique = [...new Set([...addedOurs, ...addedIso, ...ids.ours, ...ids.iso])];
  const input = `${unique.join('\n')}\n`;
  const oursBytes = gitOut(oursDir, ['cat-file', '--batch'], input);
  const isoBytes = gitOut(isoDir, ['cat-file', '--batch'], input);
  const identicalBytes = oursBytes.equals(isoBytes) && !oursBytes.includes(Buffer.from(' missing\n'));
  reads.oursAskedGit = ours.askedGit;

  const rows: ObjectsRow[] = OBJECT_CASES.map((name) => {
    const t = times.get(name) ?? { ours: [], iso: [] };
    const o = median(t.ours);
    const i = median(t.iso);
    return { case: name, ours_ms: Math.round(o * 10) / 10, isogit_ms: Math.round(i * 10) / 10, ratio: Math.round((i / o) * 1000) / 1000 };
  });
  const row = (name: ObjectCase): ObjectsRow => rows.find((r) => r.case === name) as ObjectsRow;
  const e2e = { edit10_paths_ms: median(editMs), restore10_ms: median(restoreMs) };
  const project = (total: number, r: ObjectsRow): number => Math.round(((total - r.ours_ms + r.isogit_ms) / total) * 1000) / 1000;
  return {
    runs,
    rows,
    e2e: { edit10_paths_ms: Math.round(e2e.edit10_paths_ms * 10) / 10, restore10_ms: Math.round(e2e.restore10_ms * 10) / 10 },
    projected: { edit10_paths: project(e2e.edit10_paths_ms, row('edit10_paths_objects')), restore10: project(e2e.restore10_ms, row('restore10_objects')) },
    reads,
    store,
    checks: { sameIds, identicalBytes, objects: unique.length, fsckOurs: fsck(oursDir), fsckIsogit: fsck(isoDir) },
  };
}

export function objectsLines(b: ObjectsBench): string[] {
  const header = ['case', 'ours ms', 'isomorphic-git ms', 'ratio'];
  const body = b.rows.map((r) => [r.case, r.ours_ms.toFixed(1), r.isogit_ms.toFixed(1), `${r.ratio.toFixed(2)}×`]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const within = b.projected.edit10_paths <= BOUND && b.projected.restore10 <= BOUND;
  return [
    `objects: our object layer vs isomorphic-git ${git.version()} (medians of ${b.runs} runs, sides alternating; ratio = isomorphic-git / ours)`,
    `store after the first snapshot and the e2e cases: ${b.store.packs} packs (${b.store.packMb} MB: ${b.store.sizesMb.join(' + ')}), ${b.store.loose} loose objects; ` +
      `obj_read_packed read ${b.reads.packed} packed and ${b.reads.loose} loose objects; ours asked git for ${b.reads.oursAskedGit}`,
    '',
    line(header),
    ...body.map(line),
    '',
    `engine, same run: edit10_paths ${b.e2e.edit10_paths_ms.toFixed(1)} ms, restore10 ${b.e2e.restore10_ms.toFixed(1)} ms`,
    `projected with isomorphic-git's object layer: edit10_paths ${b.projected.edit10_paths.toFixed(2)}×, restore10 ${b.projected.restore10.toFixed(2)}× ` +
      '(= (engine e2e − ours objects + isomorphic-git objects) / engine e2e)',
    `verdict: ${within ? `isomorphic-git is within ${BOUND}× on both` : `isomorphic-git is over ${BOUND}× on ${[b.projected.edit10_paths > BOUND ? 'edit10_paths' : '', b.projected.restore10 > BOUND ? 'restore10' : ''].filter(Boolean).join(' and ')}: keep ours`}`,
    `against real git: ${b.checks.objects} objects written by each side (every object new in its copy): ids ${b.checks.sameIds ? 'the same' : 'DIFFER'}, bytes ${b.checks.identicalBytes ? 'identical' : 'DIFFER'} (git cat-file --batch); ` +
      `git fsck --full: ours ${b.checks.fsckOurs}, isomorphic-git ${b.checks.fsckIsogit}`,
    'notes: obj_read_packed: 10 files\' trees and blobs from the last edit10_paths checkpoint. isomorphic-git gets a new `cache` each run, shared by that run\'s',
    '  operations (obj_read_packed runs first and loads the packs); _warm: one cache kept across runs. Ours keeps its pack list for the process, as the engine does.',
    '  writes: ours = one ObjectBatch (a pack from 3 objects, fsynced, as the engine); isomorphic-git = loose objects, never fsynced; _nofsync: ours with its fsyncs off.',
    '  edit10_paths_objects: the old entries read, 10 blobs, the trees along their paths, one commit. restore10_objects: a safety snapshot\'s objects,',
    '  the plan\'s reads (target and safety trees, 10 blobs), the restore checkpoint\'s objects. Neither side uses the engine\'s recent-objects cache.',
  ];
}
