// The folder shown beside a file's name in a list of paths: the folders every
// path shares at the start are left out ("…/"), so the part that tells two
// files apart is what shows, not a long common prefix cut where they differ.

/** The folder of `path` as shown among `all` (with its trailing "/"), or "" for a file at the top. */
export function shownDir(path: string, all: readonly string[]): string {
  const dir = folders(path);
  if (dir.length === 0) return '';
  let shared = dir.length;
  for (const other of all) {
    if (other === path) continue;
    const o = folders(other);
    let i = 0;
    while (i < shared && i < o.length && o[i] === dir[i]) i++;
    shared = i;
  }
  // Nothing differs in the folder (all in one place, or alone): it is shown whole.
  if (all.length < 2 || shared >= dir.length) return `${dir.join('/')}/`;
  return `${shared > 0 ? '…/' : ''}${dir.slice(shared).join('/')}/`;
}

function folders(path: string): string[] {
  return path.split('/').slice(0, -1);
}
