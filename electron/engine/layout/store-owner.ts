// The store must be the caller's own: it is made owner-only (store-modes.ts),
// and a folder someone else made (pre-created in a shared /tmp, say, or a
// CHRONOSCOPE_HOME pointing at another account's store) would either be
// readable by them or unusable to us. Refused before anything is written in
// it, with who owns it and what to do.
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { ChronoscopeError } from '../../../shared/errors.js';

/** The account name of `uid` from /etc/passwd, or null (no such file or entry: containers, macOS directory services). */
function userName(uid: number): string | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name && id === String(uid)) return name;
    }
  } catch {
    /* no passwd file */
  }
  return null;
}

/** Throws 'refused' when `home` belongs to another user (POSIX only: Windows has no uid). */
export async function assertOwnStore(home: string): Promise<void> {
  const me = process.getuid?.();
  if (me === undefined) return;
  const st = await fs.stat(home);
  if (st.uid === me) return;
  const name = userName(st.uid);
  const owner = name === null ? `user id ${st.uid}` : `user ${name} (uid ${st.uid})`;
  throw new ChronoscopeError(
    'refused',
    `the store folder ${home} is not yours: it belongs to ${owner}; Chronoscope keeps its store private to its owner, so remove that folder or set CHRONOSCOPE_HOME to a folder of your own`,
  );
}
