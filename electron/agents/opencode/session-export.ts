// OpenCode's own reader of its sessions, for "Open conversation": OpenCode
// keeps them in a SQLite database (~/.local/share/opencode/opencode.db in
// 1.18, written ahead in a WAL) that Node 20 cannot open without a native
// dependency, and whose schema is OpenCode's to change. `opencode export
// <session>` (a documented command) prints the session as JSON; `--pure`
// keeps plugins (ours among them) from loading for it. Run on demand only,
// when a person asks; nothing of it is kept.
import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import path from 'node:path';
import { executableOnPath } from '../../fs/executable-on-path.js';

/** OpenCode's session ids ("ses_" and base62): anything else is never put on a command line. */
const SESSION_ID = /^ses_[A-Za-z0-9]{1,200}$/;
const EXPORT_TIMEOUT_MS = 30_000;
/** A months-long session's export runs to a few MB; past this it is not read. */
const EXPORT_MAX_BYTES = 64 * 1024 * 1024;

export type OpenCodeExport = { ok: true; messages: unknown[] } | { ok: false; reason: string };

/** `opencode` on PATH, else where OpenCode's install script puts it (an app started from the desktop may have a short PATH). */
export async function openCodeBinary(env: NodeJS.ProcessEnv): Promise<string | null> {
  const onPath = await executableOnPath(['opencode'], env['PATH'] ?? '');
  if (onPath !== null) return onPath;
  const home = env['HOME'] || homedir();
  return executableOnPath(['opencode'], path.join(home, '.opencode', 'bin'));
}

/** The session's messages as OpenCode exports them, or why they cannot be had (one line). */
export async function exportOpenCodeSession(session: string, options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<OpenCodeExport> {
  if (!SESSION_ID.test(session)) return { ok: false, reason: `the call's session id is not an OpenCode session id: ${JSON.stringify(session.slice(0, 80))}` };
  const env = options.env ?? process.env;
  const bin = await openCodeBinary(env);
  if (bin === null) return { ok: false, reason: "OpenCode's command (opencode) is not on PATH: it reads the conversation from OpenCode's database" };
  const run = await new Promise<{ stdout: string; error: string | null }>((resolve) => {
    execFile(bin, ['export', session, '--pure'], { cwd: options.cwd, env, timeout: EXPORT_TIMEOUT_MS, maxBuffer: EXPORT_MAX_BYTES, windowsHide: true }, (err, stdout, stderr) => {
      // Its last line is the error ("Error: Session not found: ses_…"), after a progress line; colours out.
      const said = String(stderr).replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter((l) => l !== '').at(-1);
      resolve({ stdout: String(stdout), error: err === null ? null : said ?? err.message.split('\n')[0]! });
    });
  });
  if (run.error !== null) return { ok: false, reason: `opencode export ${session} failed: ${run.error.slice(0, 300)}` };
  try {
    const parsed = JSON.parse(run.stdout.slice(Math.max(0, run.stdout.indexOf('{')))) as unknown;
    const messages = typeof parsed === 'object' && parsed !== null ? (parsed as { messages?: unknown }).messages : undefined;
    if (Array.isArray(messages)) return { ok: true, messages };
  } catch {
    // said below
  }
  return { ok: false, reason: `opencode export ${session} printed no session this version of Chronoscope can read` };
}
