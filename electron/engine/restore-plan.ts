// What a restore would do, computed from trees only (no writes): the diff
// from the current state of the disk (a tree of it) to the target, and which
// of the files to remove are new since the latest checkpoint (untracked).
import type { GitContext } from './git-env.js';
import { git, splitNul, ZERO_OID } from './git-runner.js';

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

export async function planRestore(gitCtx: GitContext, input: PlanInput): Promise<RestorePlan> {
  const limit = input.paths && input.paths.length > 0 ? ['--', ...input.paths] : [];
  const plan: RestorePlan = { writes: [], deleted: [], untracked: [], recorded: new Map() };
  if (input.currentTree === input.targetTree) return plan;
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
