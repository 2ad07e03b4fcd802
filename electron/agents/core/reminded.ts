// Effect memory is said once per effect and session: which effects each
// session was already reminded of, in a small file beside the ledger
// (written by rename, so it is whole or absent; a lost file means at most
// one reminder said twice).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EffectLedger } from '../../effects/ledger.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';

interface RemindedFile {
  version: 1;
  sessions: Record<string, string[]>;
}

/** Sessions kept in the file: the newest ones (a session is a conversation; old ones are done). */
const MAX_SESSIONS = 200;

function remindedPath(ledger: EffectLedger): string {
  return join(dirname(ledger.path), 'reminded.json');
}

async function readReminded(path: string): Promise<RemindedFile> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && (parsed as { version?: unknown }).version === 1) {
      const sessions = (parsed as { sessions?: unknown }).sessions;
      if (typeof sessions === 'object' && sessions !== null) return { version: 1, sessions: sessions as Record<string, string[]> };
    }
  } catch {
    // absent or unreadable: nobody was reminded yet
  }
  return { version: 1, sessions: {} };
}

/** Of `effectIds`, those `session` was not reminded of yet; they are marked reminded now. */
export async function takeReminders(ledger: EffectLedger, session: string, effectIds: string[]): Promise<Set<string>> {
  const path = remindedPath(ledger);
  const file = await readReminded(path);
  const done = new Set(Array.isArray(file.sessions[session]) ? file.sessions[session] : []);
  const fresh = new Set(effectIds.filter((id) => !done.has(id)));
  if (fresh.size === 0) return fresh;
  delete file.sessions[session]; // re-inserted last: the newest session is kept longest
  file.sessions[session] = [...done, ...fresh];
  const names = Object.keys(file.sessions);
  for (const old of names.slice(0, Math.max(0, names.length - MAX_SESSIONS))) delete file.sessions[old];
  await writeFileAtomic(path, `${JSON.stringify(file)}\n`, { createDir: true });
  return fresh;
}
