// Dependencies a scratch copy needs but no checkpoint holds (node_modules and
// virtualenvs are excluded from checkpoints): linked from the workspace, so a
// verify run installs nothing and copies nothing. A link is read-only by
// convention only — a verifier that writes into node_modules writes into the
// workspace's — which is why every run says what it linked.
import fs from 'node:fs/promises';
import path from 'node:path';

export const DEPENDENCY_FOLDERS = ['node_modules', '.venv', 'venv'] as const;

export interface LinkedDependencies {
  notes: string[];
  /** Extra environment for the verifier (a virtualenv's bin first on PATH). */
  env: Record<string, string>;
}

export async function linkDependencies(workspaceRoot: string, scratch: string): Promise<LinkedDependencies> {
  const notes: string[] = [];
  const env: Record<string, string> = {};
  for (const name of DEPENDENCY_FOLDERS) {
    const source = path.join(workspaceRoot, name);
    const target = path.join(scratch, name);
    const isDir = await fs.stat(source).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) continue;
    const present = await fs.lstat(target).then(
      () => true,
      () => false,
    );
    if (present) continue; // the checkpoint has its own
    await fs.symlink(source, target, process.platform === 'win32' ? 'junction' : 'dir');
    notes.push(`linked ${name} from the workspace (${source}); the verifier should only read it`);
    if (name !== 'node_modules') {
      const bin = path.join(target, process.platform === 'win32' ? 'Scripts' : 'bin');
      env['VIRTUAL_ENV'] = target;
      env['PATH'] = `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`;
    }
  }
  return { notes, env };
}
