// The store holds a copy of every recorded file: it is owner-only (folders
// 0700, files 0600 or 0400) whatever the umask of the process writing it, and
// an older, looser store is tightened when it is opened.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../paths.js';
import { sandbox, write } from '../engine/helpers.js';

let base: string;
let home: string;
let ws: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-modes-'));
  home = path.join(base, 'store');
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'secret.txt'), 'only mine\n', { mode: 0o600 });
  fs.writeFileSync(path.join(ws, 'plain.txt'), 'anyone\n');
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** The CLI under `umask 000`: everything it creates would be world-writable if it relied on the umask. */
function cli(args: string[]): string {
  const r = spawnSync('sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, CLI_PATH, ...args], {
    env: { ...process.env, CHRONOSCOPE_HOME: home, HOME: base },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** Every entry under dir whose mode lets group or others in. */
function loose(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    const st = fs.lstatSync(d);
    if ((st.mode & 0o077) !== 0) found.push(`${path.relative(home, d) || '.'} ${(st.mode & 0o777).toString(8)}`);
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (!e.isSymbolicLink() && (fs.lstatSync(full).mode & 0o077) !== 0) found.push(`${path.relative(home, full)} ${(fs.lstatSync(full).mode & 0o777).toString(8)}`);
    }
  };
  walk(dir);
  return found;
}

describe('the store is owner-only', () => {
  it('whatever the umask: snapshots, a restore and a prune leave nothing readable by others', async () => {
    cli(['snapshot', '-w', ws]);
    fs.writeFileSync(path.join(ws, 'plain.txt'), 'changed\n');
    cli(['snapshot', '-w', ws]);
    cli(['restore', '2', '--yes', '-w', ws]);
    cli(['prune', '--yes', '--compact', '-w', ws]);
    expect(loose(home)).toEqual([]);
  });

  it('an existing store with 0755 folders and 0444 objects is tightened when opened', async () => {
    cli(['snapshot', '-w', ws]);
    // What stores made before this looked like.
    spawnSync('chmod', ['-R', 'go+rX', home]);
    fs.rmSync(path.join(home, '.owner-only'), { force: true });
    expect(loose(home).length).toBeGreaterThan(0);
    cli(['list', '-w', ws]);
    expect(loose(home)).toEqual([]);
  });
});

describe('a chmod alone', () => {
  const snapshotId = (): string | null => (JSON.parse(cli(['snapshot', '--json', '-w', ws])) as { id: string | null }).id;
  const mode = (rel: string): string => (fs.statSync(path.join(ws, rel)).mode & 0o777).toString(8);

  it('is recorded at the next snapshot (0644 -> 0600 and back, +x), and restores bring each back', () => {
    const plain = snapshotId();
    expect(plain).not.toBeNull();
    fs.chmodSync(path.join(ws, 'plain.txt'), 0o600);
    const tightened = snapshotId();
    expect(tightened, 'a chmod 0600 alone makes a checkpoint').not.toBeNull();
    fs.chmodSync(path.join(ws, 'plain.txt'), 0o644);
    const loosened = snapshotId();
    expect(loosened, 'and back to 0644').not.toBeNull();
    fs.chmodSync(path.join(ws, 'secret.txt'), 0o700);
    const executable = snapshotId();
    expect(executable, '+x').not.toBeNull();
    expect(snapshotId(), 'nothing changed since').toBeNull();

    cli(['restore', tightened as string, '--yes', '-w', ws]);
    expect([mode('plain.txt'), mode('secret.txt')]).toEqual(['600', '600']);
    cli(['restore', executable as string, '--yes', '-w', ws]);
    expect([mode('plain.txt'), mode('secret.txt')]).toEqual(['644', '700']);
  });

  it('a snapshot limited to the path (what the watcher and hooks take; no git process) records it too', async () => {
    const box = await sandbox();
    try {
      write(box.ws, 'plain.txt', 'anyone\n');
      await box.workspace.snapshot();
      fs.chmodSync(path.join(box.ws, 'plain.txt'), 0o600);
      const r = await box.workspace.snapshot({ paths: ['plain.txt'] });
      expect(r.id).not.toBeNull();
      expect((await box.workspace.list())[0]?.stats.files).toBe(0);
      fs.chmodSync(path.join(box.ws, 'plain.txt'), 0o644);
      await box.workspace.restore(r.id as string, { paths: ['plain.txt'] });
      expect((fs.statSync(path.join(box.ws, 'plain.txt')).mode & 0o777).toString(8)).toBe('600');
    } finally {
      box.cleanup();
    }
  });
});
