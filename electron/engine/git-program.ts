// Which git executable the engine runs. Spawning a bare 'git' makes the child
// try each PATH entry in turn, and Node's spawn waits for that exec: on a long
// PATH (toolchain shims first) ~2-3 ms of every git call. So the first call
// looks it up the way execvp would and later ones run it by its full path.
// Where that lookup could differ from execvp's (a relative or empty PATH entry
// before git's folder, which execvp reads against the child's own folder), or on
// Windows (PATHEXT), the bare name is kept.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

let found: { from: string; program: string } | undefined;

export function gitProgram(): string {
  if (process.platform === 'win32') return 'git';
  const searched = process.env['PATH'] ?? '';
  if (found?.from === searched) return found.program;
  found = { from: searched, program: lookUp(searched) };
  return found.program;
}

function lookUp(searched: string): string {
  for (const dir of searched.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) return 'git';
    const candidate = path.join(dir, 'git');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here: the next entry
    }
  }
  return 'git';
}
