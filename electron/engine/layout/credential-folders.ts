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

/** The credential folder (real path) `real` is or lies inside, for any of `homes`; null if none. */
export async function credentialFolderOf(real: string, homes: readonly string[]): Promise<string | null> {
  for (const home of homes) {
    for (const rel of CREDENTIAL_FOLDERS) {
      const folder = path.join(home, ...rel.split('/'));
      // Through its links: ~/.aws may be a link into a dotfiles repository.
      const resolved = await fs.realpath(folder).catch(() => folder);
      for (const candidate of new Set([folder, resolved])) if (isInside(real, candidate)) return candidate;
    }
  }
  return null;
}
