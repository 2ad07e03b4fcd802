// chronoscope why <commit>: what led to a commit of the workspace's repository
// (electron/share/why-commit.ts), the commit form of `why` (why.ts): tried
// when no file of that name exists.
import { storeGit } from '../../engine/layout/context.js';
import { storeLayout } from '../../engine/layout/paths.js';
import { commitWhy } from '../../share/why-commit.js';
import { repoTop } from '../../share/workspace-git.js';
import { checkedWorkspaceDir, openCliStore, type CommonOptions } from '../context.js';
import { printJson, printLine } from '../output.js';

/** Answers `why <commit>`; false when the argument names no commit (a path, for the why room's own form). */
export async function whyCommit(arg: string, options: CommonOptions): Promise<boolean> {
  const { dir } = await checkedWorkspaceDir(options);
  const repo = await repoTop(dir).catch(() => null);
  if (repo === null) return false;
  const store = await openCliStore();
  const workspace = await store.workspace(dir, { register: false }).catch(() => null);
  if (workspace === null) return false;
  const why = await commitWhy(storeGit(storeLayout(store.home)), workspace.meta.id, repo, arg);
  if (why === null) return false;
  if (options.json) printJson(why);
  else if (why.notes.length === 0) printLine(`no link for commit ${why.commit.slice(0, 12)}: it was not pushed with sharing on (chronoscope share enable), or a teammate's notes are not pulled yet`);
  else for (const note of why.notes) printLine(`commit ${why.commit.slice(0, 12)}\n${note.text.split('\nChronoscope-Why: ')[0]!.trimEnd()}`);
  return true;
}
