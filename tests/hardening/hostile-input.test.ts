// Hostile and careless input through the real CLI: one clear line, exit 1,
// nothing changed, nothing written outside the workspace.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from '../cli/run-cli.js';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

const file = (rel: string): string => path.join(sb.workspace, rel);
const count = (): number => sb.json<unknown[]>(['list', '--all']).length;

describe('restore --path', () => {
  it('a path that matches nothing: exit 1, one line that says so, no safety checkpoint, nothing changed', () => {
    fs.writeFileSync(file('a.txt'), 'one\n');
    expect(sb.cli(['snapshot']).code).toBe(0);
    fs.writeFileSync(file('a.txt'), 'two\n');
    const before = count();
    for (const args of [['restore', '1', '--path', 'no-such.txt', '--yes'], ['restore', '1', '--path', 'no-such.txt']]) {
      const r = sb.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('matches nothing');
    }
    expect(count()).toBe(before);
    expect(fs.readFileSync(file('a.txt'), 'utf8')).toBe('two\n');
  });

  it("'./-rf' reaches a file named -rf", () => {
    fs.writeFileSync(file('-rf'), 'original\n');
    fs.writeFileSync(file('other.txt'), 'other\n');
    expect(sb.cli(['snapshot']).code).toBe(0);
    fs.writeFileSync(file('-rf'), 'changed\n');
    fs.writeFileSync(file('other.txt'), 'other, changed\n');
    const r = sb.cli(['restore', '1', '--path', './-rf', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(file('-rf'), 'utf8')).toBe('original\n');
    expect(fs.readFileSync(file('other.txt'), 'utf8')).toBe('other, changed\n');
    // Its undo names the same path, the same way.
    expect(r.stdout).toContain("--path ./-rf");
    expect(sb.cli(['diff', '1', 'workspace', '--file', './-rf']).code).toBe(0);
  });

  it("the undo line of a one-file restore restores that file only", () => {
    fs.writeFileSync(file('a.txt'), 'a1\n');
    fs.writeFileSync(file('b.txt'), 'b1\n');
    expect(sb.cli(['snapshot']).code).toBe(0);
    fs.writeFileSync(file('a.txt'), 'a2\n');
    const r = sb.cli(['restore', '1', '--path', 'a.txt', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const undo = /to undo: (chronoscope restore .*)$/m.exec(r.stdout)?.[1] ?? '';
    expect(undo).toMatch(/--path \.\/a\.txt$/);
    fs.writeFileSync(file('b.txt'), 'b2, after the restore\n');
    const args = undo.split(' ').slice(1);
    expect(sb.cli(args).code).toBe(0);
    expect(fs.readFileSync(file('a.txt'), 'utf8')).toBe('a2\n');
    expect(fs.readFileSync(file('b.txt'), 'utf8')).toBe('b2, after the restore\n');
  });
});

describe('ids', () => {
  it('an invalid id is echoed shortened, not in full', () => {
    const long = 'x'.repeat(100_000);
    for (const args of [['show', long], ['restore', long], ['diff', long]]) {
      const r = sb.cli(args);
      expect(r.code).not.toBe(0);
      expect(r.stderr.length).toBeLessThan(400);
    }
  });
});

describe('hooks install', () => {
  it('refuses a .claude folder that is a symlink to outside the workspace, writing nothing there', () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(sb.workspace), 'outside-'));
    fs.symlinkSync(outside, file('.claude'));
    const r = sb.cli(['hooks', 'install', 'claude-code']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('outside the workspace');
    expect(fs.readdirSync(outside)).toEqual([]);
    // The person's own ~/.claude may be linked anywhere: --user is not limited.
  });
});
