// What a restore would do, computed from trees only (no writes): the diff
// from the current state of the disk (a tree of it) to the target, and which
// of the files to remove are new since the latest checkpoint (untracked).
// Trees are compared in Node when they differ in a few places (tree-diff.ts),
// else by `git diff-tree`: the same plan either way.
import type { GitContext } from './git/git-env.js';
import { git, splitNul, ZERO_OID } from './git/git-runner.js';
import { cachedReader, diffTreesInNode } from './trees/tree-diff.js';
import { inGitDir } from './validate.js';

export interface PlannedWrite {
  path: string;
  mode: string;
  oid: string;
  kind: 'modified' | 'added';
}

export interface RestorePlan {
  writes: PlannedWrite[];
  /** Known to the latest checkpoint, absent from the target. */
  deleted: string[];
  /** New since the latest checkpoint, absent from the target. */
  untracked: string[];
  /** What the current tree recorded for each path the plan replaces or removes. */
  recorded: Map<string, { mode: string; oid: string }>;
}

export interface PlanInput {
  currentTree: string;
  targetTree: string;
  /** Tree of the checkpoint that was latest before the current state was recorded. */
  knownTree: string;
  paths?: string[];
}

export async function planRestore(gitCtx: GitContext, input: PlanInput): Promise<RestorePlan & { inGit: string[] }> {
  if (input.currentTree === input.targetTree) return { writes: [], deleted: [], untracked: [], recorded: new Map(), inGit: [] };
  return withoutGitPaths((await planInNode(gitCtx, input)) ?? (await planWithGit(gitCtx, input)));
}

/**
 * Nothing is ever written or removed under a .git folder, at any depth: a
 * store tree holding `.git/hooks/post-checkout` (crafted, or fetched from a
 * shared remote) would otherwise plant code git runs. The scan never records
 * .git, so only such a tree has these paths; they are left out, and named.
 */
function withoutGitPaths(plan: RestorePlan): RestorePlan & { inGit: string[] } {
  const inGit = [...plan.writes.map((w) => w.path), ...plan.deleted, ...plan.untracked].filter(inGitDir);
  if (inGit.length === 0) return { ...plan, inGit };
  const keep = (p: string): boolean => !inGitDir(p);
  return { ...plan, writes: plan.writes.filter((w) => keep(w.path)), deleted: plan.deleted.filter(keep), untracked: plan.untracked.filter(keep), inGit };
}

/** The same plan from trees read in Node (tree-diff.ts); null when the trees differ too widely. */
async function planInNode(gitCtx: GitContext, input: PlanInput): Promise<RestorePlan | null> {
  const read = cachedReader(gitCtx);
  const changes = await diffTreesInNode(read, input.currentTree, input.targetTree, input.paths);
  if (changes === null) return null;
  const plan: RestorePlan = { writes: [], deleted: [], untracked: [], recorded: new Map() };
  const removals: string[] = [];
  for (const c of changes) {
    if (c.status !== 'A') plan.recorded.set(c.path, { mode: c.oldMode, oid: c.oldOid });
    if (c.status === 'D') removals.push(c.path);
    else if (c.newMode === '160000') continue; // gitlinks are never restored
    else if (c.newOid !== ZERO_OID) plan.writes.push({ path: c.path, mode: c.newMode, oid: c.newOid, kind: c.status === 'A' ? 'added' : 'modified' });
  }
  if (removals.length > 0) {
    let fresh = new Set<string>();
    if (input.knownTree !== input.currentTree) {
      const added = await diffTreesInNode(read, input.knownTree, input.currentTree, input.paths);
      if (added === null) return null;
      fresh = new Set(added.filter((c) => c.status === 'A').map((c) => c.path));
    }
    for (const path of removals) (fresh.has(path) ? plan.untracked : plan.deleted).push(path);
  }
  return plan;
}

async function planWithGit(gitCtx: GitContext, input: PlanInput): Promise<RestorePlan> {
  const limit = input.paths && input.paths.length > 0 ? ['--', ...input.paths] : [];
  const plan: RestorePlan = { writes: [], deleted: [], untracked: [], recorded: new Map() };
  // Which files are new since the latest checkpoint matters only for removals.
  // A full restore usually removes something: ask alongside the main diff then.
  const addedSince = (): Promise<Set<string>> =>
    input.knownTree === input.currentTree
      ? Promise.resolve(new Set())
      : git(gitCtx, ['diff-tree', '-r', '-z', '--no-renames', '--diff-filter=A', '--name-only', input.knownTree, input.currentTree, ...limit]).then((out) => new Set(splitNul(out)));
  const early = limit.length === 0 ? addedSince() : undefined;
  early?.catch(() => undefined); // awaited below when needed
  const tokens = splitNul(await git(gitCtx, ['diff-tree', '-r', '-z', '--no-renames', '--raw', input.currentTree, input.targetTree, ...limit]));
  const removals: string[] = [];
  for (let i = 0; i < tokens.length; i += 2) {
    const header = tokens[i] ?? '';
    const path = tokens[i + 1] ?? '';
    const [oldMode = '', newMode = '', oldOid = '', newOid = '', status = ''] = header.slice(1).split(' ');
    if (status !== 'A') plan.recorded.set(path, { mode: oldMode, oid: oldOid });
    if (status === 'D') removals.push(path);
    else if (newMode === '160000') continue; // gitlinks are never restored
    else plan.writes.push({ path, mode: newMode, oid: newOid, kind: status === 'A' ? 'added' : 'modified' });
  }
  if (removals.length > 0) {
    const fresh = await (early ?? addedSince());
    for (const path of removals) (fresh.has(path) ? plan.untracked : plan.deleted).push(path);
  }
  plan.writes = plan.writes.filter((w) => w.oid !== ZERO_OID);
  return plan;
}
