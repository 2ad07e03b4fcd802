// One temporary folder per test holding a store home and a workspace, so CLI,
// hook and hardening tests set up (and clean up) the same way.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TempProject {
  /** The temporary folder; everything a test writes stays under it. */
  dir: string;
  /** CHRONOSCOPE_HOME for the test (`<dir>/store`, created by the store itself). */
  home: string;
  /** The workspace (`<dir>/project`). */
  ws: string;
}

/** Creates `<tmp>/<prefix>…/project` with `files` (paths relative to it, '/'-separated; a trailing '/' makes a folder). */
export async function makeTempProject(prefix: string, files: Record<string, string> = {}): Promise<TempProject> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const ws = join(dir, 'project');
  await mkdir(ws, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const target = join(ws, ...path.split('/'));
    if (path.endsWith('/')) {
      await mkdir(target, { recursive: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  return { dir, home: join(dir, 'store'), ws };
}

export async function removeTempProject(dir: string): Promise<void> {
  // Retries: a background upkeep a CLI process started may still be writing into the store.
  await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
}
