// Whether the Gemini CLI that runs this hook can ask its person anything.
// Gemini 0.61 turns a hook's `decision: "ask"` into its confirmation prompt
// even when it runs headless (`gemini -p …`, or input from a pipe), where
// nobody can answer: the call then waits for ever (measured: the run hung
// until killed). Gemini tells a hook nothing about it, so the hook looks at
// the Gemini process above it (Linux /proc): its arguments and its stdin.
// Where that cannot be read, it is taken as interactive (an ask, as before).
import { readFileSync, readlinkSync } from 'node:fs';

/** How far up the process tree Gemini may be (it starts hooks through a shell). */
const LEVELS = 4;

function parentOf(pid: number): number | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}

function argvOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return null;
  }
}

function isGemini(argv: readonly string[]): boolean {
  return argv.slice(0, 3).some((a) => /(^|\/)gemini(\.js)?$|gemini-cli/.test(a));
}

/** True when the Gemini above this process runs headless: a prompt given on the command line, or stdin not a terminal. */
export function geminiIsHeadless(start: number = process.ppid): boolean {
  let pid: number | null = start;
  for (let level = 0; level < LEVELS && pid !== null; level++, pid = parentOf(pid)) {
    const argv = argvOf(pid);
    if (argv === null || !isGemini(argv)) continue;
    if (argv.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt='))) return true;
    try {
      return !/^\/dev\/(pts\/\d+|tty\w*)$/.test(readlinkSync(`/proc/${pid}/fd/0`));
    } catch {
      return false;
    }
  }
  return false;
}
