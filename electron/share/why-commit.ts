// `chronoscope why <commit>`: the prompts and checkpoints that led to a commit
// of the workspace's repository, from the git notes sharing wrote (ours in
// refs/notes/chronoscope; a teammate's as pulled under refs/chronoscope-shared/).
import type { GitContext } from '../engine/git/git-env.js';
import { git } from '../engine/git/git-runner.js';
import { NOTES_REF } from './identity.js';
import { sharedPrefixOf } from './namespace.js';
import { parseNote, readNote, type CommitLink } from './notes.js';
import { resolveCommit } from './workspace-git.js';

export interface CommitWhy {
  commit: string;
  /** The notes found (ours, then teammates'), text as written. */
  notes: { ref: string; text: string; link: CommitLink | null }[];
}

/** null when `commitish` names no commit of the repository at `repo` (the caller may try a path next). */
export async function commitWhy(gitCtx: GitContext, workspaceId: string, repo: string, commitish: string): Promise<CommitWhy | null> {
  const commit = await resolveCommit(repo, commitish);
  if (commit === null) return null;
  const pulled = (await git(gitCtx, ['for-each-ref', '--format=%(refname)', sharedPrefixOf(workspaceId)])).split('\n').filter((r) => r.endsWith('/notes'));
  const notes: CommitWhy['notes'] = [];
  for (const ref of [NOTES_REF, ...pulled]) {
    const text = await readNote(gitCtx, ref, commit);
    if (text !== null && !notes.some((n) => n.text === text)) notes.push({ ref, text, link: parseNote(text) });
  }
  return { commit, notes };
}
