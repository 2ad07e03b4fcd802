// Codex has no JSON "ask": the hook denies an irreversible command and tells
// the model to ask the person. When the person agrees, the model runs the same
// command again in a later turn (the person's answer starts one): that second
// attempt must go through. So the turn a command was refused in is kept, per
// session and command, in a small owner-only file of the store
// (<home>/asked/<sha256>); a later turn's attempt finds it, removes it, and runs.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import { makeDir } from '../../fs/make-dir.js';

/** True: refuse and ask (first attempt, or again in the same turn). False: the person has spoken since the refusal. */
export async function askOnce(session: string | undefined, turn: string | undefined, command: string, home: string = defaultStoreHome()): Promise<boolean> {
  if (session === undefined || turn === undefined) return true;
  const dir = path.join(home, 'asked');
  const file = path.join(dir, createHash('sha256').update(`${session}\0${command}`).digest('hex').slice(0, 32));
  const askedIn = await fs.readFile(file, 'utf8').catch(() => null);
  if (askedIn !== null && askedIn !== turn) {
    await fs.rm(file, { force: true });
    return false;
  }
  await makeDir(dir, 0o700);
  await writeFileAtomic(file, turn, { mode: 0o600 });
  return true;
}
