// A program by name on PATH, the way a shell would find it (npm's `which`:
// PATHEXT on Windows, executable bits elsewhere), but only in PATH's absolute
// folders: a relative entry ("." or "bin") would be looked up from whatever
// folder the app runs in, which may be a workspace an agent writes to.
import path from 'node:path';
import which from 'which';

/** The first of `names` found, as an absolute path; null when none is. */
export async function executableOnPath(names: readonly string[], pathValue: string = process.env['PATH'] ?? ''): Promise<string | null> {
  const dirs = pathValue.split(path.delimiter).filter((d) => path.isAbsolute(d));
  if (dirs.length === 0) return null;
  for (const name of names) {
    const found = await which(name, { path: dirs.join(path.delimiter), nothrow: true });
    if (found !== null) return found;
  }
  return null;
}
