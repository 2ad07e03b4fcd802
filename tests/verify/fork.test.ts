// chronoscope fork: a checkpoint's files come out byte for byte, with modes and
// links, in a new folder; any existing target is refused; nothing is registered.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, treeFingerprint, type Sandbox } from '../cli/run-cli.js';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

function write(rel: string, text: string, mode?: number): void {
  const full = path.join(sb.workspace, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  if (mode !== undefined) fs.chmodSync(full, mode);
}

describe('fork', () => {
  it('writes the checkpoint into <workspace>-fork-<short id> with modes and links, and registers nothing', () => {
    write('src/app.js', 'console.log(1)\n');
    write('run.sh', '#!/bin/sh\necho hi\n', 0o755);
    fs.symlinkSync('src/app.js', path.join(sb.workspace, 'entry'));
    fs.symlinkSync('../run.sh', path.join(sb.workspace, 'src', 'up-link'));
    const taken = sb.json<{ id: string }>(['snapshot']);
    const before = treeFingerprint(sb.workspace);
    // The workspace moves on; the fork must be the checkpoint, not the disk.
    write('src/app.js', 'changed\n');
    fs.rmSync(path.join(sb.workspace, 'entry'));

    const fork = sb.json<{ id: string; path: string }>(['fork', taken.id.slice(0, 8)]);
    expect(Object.keys(fork).sort()).toEqual(['id', 'path']);
    expect(fork.id).toBe(taken.id);
    expect(fork.path).toBe(`${fs.realpathSync(sb.workspace)}-fork-${taken.id.slice(0, 8)}`);
    expect(treeFingerprint(fork.path)).toBe(before);
    expect(fs.readlinkSync(path.join(fork.path, 'entry'))).toBe('src/app.js');
    expect(fs.statSync(path.join(fork.path, 'run.sh')).mode & 0o111).not.toBe(0);

    const workspaces = fs.readdirSync(path.join(sb.home, 'workspaces'));
    expect(workspaces).toHaveLength(1); // the fork is a plain folder, not a new workspace
  });

  it('refuses any existing target, even an empty folder, and changes nothing there', () => {
    write('a.txt', 'a\n');
    sb.json(['snapshot']);
    const empty = path.join(path.dirname(sb.workspace), 'already-here');
    fs.mkdirSync(empty);
    const run = sb.cli(['fork', 'latest', '--to', empty]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/already exists/);
    expect(fs.readdirSync(empty)).toEqual([]);

    const dangling = path.join(path.dirname(sb.workspace), 'dangling');
    fs.symlinkSync('/nonexistent/place', dangling);
    expect(sb.cli(['fork', 'latest', '--to', dangling]).code).toBe(1);
  });

  it('refuses a target inside the workspace or the store', () => {
    write('a.txt', 'a\n');
    sb.json(['snapshot']);
    const inside = sb.cli(['fork', 'latest', '--to', path.join(sb.workspace, 'sub', 'fork')]);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toMatch(/inside the workspace/);
    expect(fs.existsSync(path.join(sb.workspace, 'sub'))).toBe(false);
    const inStore = sb.cli(['fork', 'latest', '--to', path.join(sb.home, 'fork')]);
    expect(inStore.code).toBe(1);
    expect(inStore.stderr).toMatch(/inside the Chronoscope store/);
  });

  it('writes into a named new folder, creating its parents', () => {
    write('a.txt', 'a\n');
    const taken = sb.json<{ id: string }>(['snapshot']);
    const to = path.join(path.dirname(sb.workspace), 'forks', 'one');
    const fork = sb.json<{ id: string; path: string }>(['fork', '1', '--to', to]);
    expect(fork).toEqual({ id: taken.id, path: to });
    expect(fs.readFileSync(path.join(to, 'a.txt'), 'utf8')).toBe('a\n');
  });
});
