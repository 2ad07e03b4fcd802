// The store is owner-only: it holds copies of every recorded file, including
// ones that were 0600 in the workspace. Its home folder is 0700 (checked on
// every open: one chmod), so nobody else can even reach inside; folders are
// created 0700 and files 0600 (objects 0400) whatever the umask (git through
// core.sharedRepository, ours by explicit modes). A store made before this
// (folders 0755, objects 0444) is tightened once, on the first open, and
// marked so that later opens cost nothing.
import fs from 'node:fs/promises';
import path from 'node:path';

const MARKER = '.owner-only';

export async function makeOwnerOnly(home: string): Promise<void> {
  await fs.chmod(home, 0o700);
  const marker = path.join(home, MARKER);
  if (await fs.lstat(marker).then(() => true, () => false)) return;
  await tighten(home);
  await fs.writeFile(marker, 'folders 0700, files 0600\n', { mode: 0o600 });
}

/** Removes group and other permissions from everything under dir (links are left alone: their modes mean nothing). */
async function tighten(dir: string): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) return;
      const st = await fs.lstat(full).catch(() => null);
      if (!st) return;
      if ((st.mode & 0o077) !== 0) await fs.chmod(full, st.mode & 0o700).catch(() => undefined);
      if (entry.isDirectory()) await tighten(full);
    }),
  );
}
