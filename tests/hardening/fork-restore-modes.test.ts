// Fork and restore never make a file or folder more open than it was: a 0600
// file and a 0700 folder come out 0600 and 0700 (git's checkout-index, which
// fork used, knows only 644/755), a deleted 0700 folder is restored 0700, and
// with a restrictive umask (077) nothing new is open to anyone else. Run as
// another user: root would pass every permission check the modes are for.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { otherUser } from '../support/other-user.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const FILES: Record<string, number> = { 'secret.txt': 0o600, 'private/key.txt': 0o600, 'private/deeper/note.txt': 0o640, 'pub/a.txt': 0o644, 'bin/tool': 0o755 };
const FOLDERS: Record<string, number> = { private: 0o700, 'private/deeper': 0o750, pub: 0o755, bin: 0o755 };

/** A workspace owned by the other user, with the modes above, snapshotted by that user. */
function setUp(): { base: string; ws: string; run: (args: string[], umask?: string) => ReturnType<typeof otherUser.cli> } {
  const base = otherUser.dir('chronoscope-modes-');
  made.push(base);
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws, { mode: 0o755 });
  fs.chmodSync(ws, 0o755);
  for (const [rel, mode] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), `${rel}\n`);
    fs.chmodSync(path.join(ws, rel), mode);
  }
  for (const [rel, mode] of Object.entries(FOLDERS)) fs.chmodSync(path.join(ws, rel), mode);
  execFileSync('chown', ['-R', `${otherUser.uid}:${otherUser.gid}`, ws]);
  const run = (args: string[], umask = '022'): ReturnType<typeof otherUser.cli> => otherUser.cli(args, { cwd: ws, home: path.join(base, 'store'), userHome: base, umask });
  const snap = run(['snapshot']);
  expect(snap.code, snap.stderr).toBe(0);
  return { base, ws, run };
}

const modeOf = (p: string): number => fs.lstatSync(p).mode & 0o777;

/** Every entry under `root` (root included) with its mode. */
function allModes(root: string): Map<string, number> {
  const out = new Map<string, number>([['.', modeOf(root)]]);
  const walk = (dir: string, rel: string): void => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      out.set(r, modeOf(full));
      if (fs.lstatSync(full).isDirectory()) walk(full, r);
    }
  };
  walk(root, '');
  return out;
}

/** Exact modes of some entries under `root`, compared in octal. */
function expectModes(root: string, wanted: Record<string, number>): void {
  const got = new Map(Object.keys(wanted).map((rel) => [rel, modeOf(path.join(root, rel))] as const));
  expect(octal(got)).toEqual(octal(new Map(Object.entries(wanted))));
}

const octal = (m: Map<string, number>): Record<string, string> => Object.fromEntries([...m].map(([k, v]) => [k, v.toString(8)]));

describe.skipIf(otherUser.skip !== null)('modes through fork and restore (as another user)', () => {
  it('fork writes files and folders with the modes they had (umask 022)', () => {
    const { base, ws, run } = setUp();
    const to = path.join(base, 'fork');
    const r = run(['fork', '1', '--to', to]);
    expect(r.code, r.stderr).toBe(0);
    const expected = new Map([['.', 0o755], ...Object.entries(FILES), ...Object.entries(FOLDERS)]);
    expect(octal(allModes(to))).toEqual(octal(expected));
    expect(fs.statSync(to).uid).toBe(otherUser.uid);
    expect(allModes(ws).get('private')).toBe(0o700);
  });

  it('fork with umask 077: nothing is open to group or others', () => {
    const { base, run } = setUp();
    const to = path.join(base, 'fork');
    const r = run(['fork', '1', '--to', to], '077');
    expect(r.code, r.stderr).toBe(0);
    const open = [...allModes(to)].filter(([, m]) => (m & 0o077) !== 0);
    expect(open.map(([p, m]) => `${p} ${m.toString(8)}`)).toEqual([]);
    expectModes(to, { 'secret.txt': 0o600, private: 0o700, 'bin/tool': 0o700 });
  });

  it('restore recreates a deleted 0700 folder 0700 (and a 0750 one 0750), its files as they were', () => {
    const { ws, run } = setUp();
    fs.rmSync(path.join(ws, 'private'), { recursive: true });
    const r = run(['restore', '1', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expectModes(ws, { private: 0o700, 'private/deeper': 0o750, 'private/key.txt': 0o600, 'private/deeper/note.txt': 0o640 });
  });

  it('restore with umask 077: a recreated folder and its files are open to nobody else', () => {
    const { ws, run } = setUp();
    fs.rmSync(path.join(ws, 'pub'), { recursive: true });
    fs.rmSync(path.join(ws, 'private'), { recursive: true });
    const r = run(['restore', '1', '--yes'], '077');
    expect(r.code, r.stderr).toBe(0);
    for (const rel of ['pub', 'pub/a.txt', 'private', 'private/key.txt', 'private/deeper', 'private/deeper/note.txt']) {
      expect((modeOf(path.join(ws, rel)) & 0o077).toString(8), rel).toBe('0');
    }
  });
});
