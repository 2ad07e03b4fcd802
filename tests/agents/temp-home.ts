// A throw-away world for a real agent CLI: a temp folder holding the person's
// HOME, the Chronoscope store, a workspace, and a PATH without node (agents
// start hooks with a PATH of their own: the installed command must not need one).
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempWorld {
  dir: string;
  /** $HOME for the agent and for `chronoscope hooks install`. */
  home: string;
  /** $CHRONOSCOPE_HOME. */
  store: string;
  /** The workspace the agent works in. */
  ws: string;
  /** A folder of every program of /usr/bin and /bin except node, to use as PATH. */
  noNodeBin: string;
  remove(): Promise<void>;
}

export async function tempWorld(prefix: string): Promise<TempWorld> {
  const dir = await mkdtemp(join(tmpdir(), `chronoscope-${prefix}-`));
  const world = { dir, home: join(dir, 'home'), store: join(dir, 'store'), ws: join(dir, 'project'), noNodeBin: join(dir, 'bin') };
  await mkdir(world.home, { recursive: true });
  await mkdir(world.ws, { recursive: true });
  await mkdir(world.noNodeBin, { recursive: true });
  for (const from of ['/usr/bin', '/bin']) {
    for (const name of await readdir(from).catch(() => [] as string[])) {
      if (name === 'node' || name === 'nodejs') continue;
      await symlink(join(from, name), join(world.noNodeBin, name)).catch(() => undefined);
    }
  }
  return { ...world, remove: () => rm(dir, { recursive: true, force: true }) };
}
