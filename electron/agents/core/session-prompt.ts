// The person's latest prompt in an agent session, so the checkpoints its tool
// calls take can carry it (the timeline labels lanes with it). Claude Code
// gives the prompt only to UserPromptSubmit, a separate hook process from the
// tool calls', so it is kept in a small owner-only file per session in the
// store: <home>/prompts/<sha256 of the session id>. Only the first line is
// kept, shortened: a label, not a transcript. A second line holds the
// prompt's id in the workspace's prompt ledger (electron/prompts/ledger.ts),
// which each checkpoint of the session's calls carries (prompt_id); files
// written before it have none.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { LINE_BREAKERS, controlChars } from '../../../shared/control-chars.js';
import { PROMPT_ID_PATTERN } from '../../../shared/model.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import { makeDir } from '../../fs/make-dir.js';
import { redactSecrets } from '../../../shared/redact.js';

/** Longest label kept, in characters. */
export const PROMPT_LABEL_MAX = 120;

function fileFor(home: string, session: string): string {
  return path.join(home, 'prompts', createHash('sha256').update(session).digest('hex').slice(0, 32));
}

/**
 * The label of a prompt: its first non-empty line, control characters dropped, secrets masked
 * (before shortening, so a token cut by the ellipsis is masked whole), shortened with an ellipsis.
 */
export function promptLabel(prompt: string): string {
  const first = prompt.split(/\r?\n/).map((l) => l.replace(controlChars(LINE_BREAKERS), ' ').trim()).find((l) => l !== '') ?? '';
  const line = redactSecrets(first);
  return line.length > PROMPT_LABEL_MAX ? `${line.slice(0, PROMPT_LABEL_MAX - 1)}…` : line;
}

export async function rememberPrompt(home: string, session: string, prompt: string, id?: string): Promise<void> {
  const label = promptLabel(prompt);
  if (label === '') return;
  const dir = path.join(home, 'prompts');
  await makeDir(dir, 0o700); // not Node's recursive mkdir: it spins on a store under /proc (make-dir.ts)
  await writeFileAtomic(fileFor(home, session), id === undefined ? label : `${label}\n${id}`, { mode: 0o600 });
}

export interface SessionPrompt {
  label: string;
  /** Its id in the prompt ledger; null in a file written before prompts had ids. */
  id: string | null;
}

/** The session's latest prompt, or null (none recorded, or unreadable: a label is never worth a failure). */
export async function promptOf(home: string, session: string): Promise<SessionPrompt | null> {
  const text = await fs.readFile(fileFor(home, session), 'utf8').catch(() => null);
  if (text === null || text === '') return null;
  const id = text.split('\n')[1]?.trim() ?? '';
  return { label: promptLabel(text), id: PROMPT_ID_PATTERN.test(id) ? id : null };
}
