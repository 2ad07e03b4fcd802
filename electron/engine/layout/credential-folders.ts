// Folders of the home that hold credentials and nothing else: ~/.aws holds
// `credentials` with its secret key, ~/.config/gh `hosts.yml` with a token.
// The credential excludes (scan/excludes.ts) catch them inside a project, but
// a workspace that is such a folder, or lies inside one, would record them
// under their plain names (`cd ~/.aws && claude`: hooks take the agent's
// folder as the workspace). So such a workspace is refused, unless the person
// set include_credentials.
import fs from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../support/fsutil.js';

/** Relative to a home folder. The six the issue named, and the two more folder patterns the excludes already keep out. */
export const CREDENTIAL_FOLDERS = ['.aws', '.ssh', '.gnupg', '.config/gh', '.docker', '.kube', '.azure', '.config/gcloud'];

/** The credential folder `real` is or lies inside, for any of `homes`; null if none. */
export async function credentialFolderOf(real: string, homes: readonly string[]): Promise<string | null> {
  const folders = homes.flatMap((home) => CREDENTIAL_FOLDERS.map((rel) => path.join(home, ...rel.split('/'))));
  // Through their links too (~/.aws may be a link into a dotfiles repository); looked up side by side: a hook opens a workspace on every call.
  const resolved = await Promise.all(folders.map((f) => fs.realpath(f).catch(() => f)));
  for (const [i, folder] of folders.entries()) {
    for (const candidate of new Set([folder, resolved[i] ?? folder])) if (isInside(real, candidate)) return candidate;
  }
  return null;
}
