// The engine runs git by its full path, looked up once the way execvp would
// (engine/git-program.ts), or by its bare name where the lookup could differ.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitProgram } from '../../electron/engine/git-program.js';

let dir: string;
let savedPath: string | undefined;
const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-gitprog-')));
  savedPath = process.env['PATH'];
});
afterEach(() => {
  process.env['PATH'] = savedPath;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('the git program', () => {
  it('is the first executable git on PATH, skipping a folder without one and a git that cannot run', () => {
    const empty = path.join(dir, 'empty');
    const notExecutable = path.join(dir, 'plain');
    fs.mkdirSync(empty);
    fs.mkdirSync(notExecutable);
    fs.writeFileSync(path.join(notExecutable, 'git'), '#!/bin/sh\n', { mode: 0o644 });
    process.env['PATH'] = [empty, notExecutable, path.dirname(realGit)].join(path.delimiter);
    expect(gitProgram()).toBe(realGit);
  });

  it('follows a change of PATH', () => {
    const shim = path.join(dir, 'shim');
    fs.mkdirSync(shim);
    fs.writeFileSync(path.join(shim, 'git'), '#!/bin/sh\nexec git "$@"\n', { mode: 0o755 });
    process.env['PATH'] = [shim, path.dirname(realGit)].join(path.delimiter);
    expect(gitProgram()).toBe(path.join(shim, 'git'));
    process.env['PATH'] = path.dirname(realGit);
    expect(gitProgram()).toBe(realGit);
  });

  it('stays the bare name where execvp would search differently (a relative or empty entry first) or finds none', () => {
    process.env['PATH'] = ['bin', path.dirname(realGit)].join(path.delimiter);
    expect(gitProgram()).toBe('git');
    process.env['PATH'] = ['', path.dirname(realGit)].join(path.delimiter);
    expect(gitProgram()).toBe('git');
    process.env['PATH'] = dir;
    expect(gitProgram()).toBe('git');
  });
});
