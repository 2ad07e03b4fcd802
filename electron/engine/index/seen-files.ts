// What a path-limited snapshot saw of each file it recorded, kept for the
// private index's sync (index-sync.ts) to update the index without a scan.
import type { Stats } from 'node:fs';

/** What git's stat cache compares: the same signature means the same content (git's own assumption). */
export function fileSignature(st: Stats): string {
  return `${st.ino}:${st.mode}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

export interface SeenFile {
  signature: string;
  mode: string;
  oid: string;
}
