// What a person meets when the store or its files are not as expected, from
// the real built CLI: an empty config.json (the defaults, with one warning), a
// store path that is a file (one line naming it and the fix), a 0-byte private
// index (status works, as snapshot does).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, SnapshotResult, WorkspaceStatus } from '../../shared/model.js';
import { CLI_PATH } from '../paths.js';
import { makeSandbox, type Sandbox } from './run-cli.js';

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
  writeFileSync(join(box.workspace, 'a.txt'), 'a\n');
});
afterEach(() => box.cleanup());

const snapshot = (reason: string): string => {
  const r = box.json<SnapshotResult>(['snapshot', '--reason', reason]);
  if (r.id === null) throw new Error(`no checkpoint: ${r.skipped}`);
  return r.id;
};

describe('an empty config.json', () => {
  for (const [what, text] of [['0 bytes', ''], ['whitespace only', '  \n\t\n']] as const) {
    it(`means the defaults, with a one-line warning (${what})`, () => {
      snapshot('first');
      writeFileSync(join(box.home, 'config.json'), text);
      for (const args of [['status', '--json'], ['list', '--json'], ['snapshot', '--json']]) {
        const run = box.cli(args);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expect(run.stderr).toBe(`chronoscope: warning: settings file ${join(box.home, 'config.json')} is empty; using the defaults (remove it, or write {} to keep it)\n`);
        JSON.parse(run.stdout);
      }
    });
  }

  it('still refuses a config.json that is not JSON', () => {
    snapshot('first');
    writeFileSync(join(box.home, 'config.json'), '{ "max_file_mb": ');
    const run = box.cli(['status']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^chronoscope: settings file .*config\.json is not valid JSON/);
  });
});

describe('a store path that is a file', () => {
  const withHome = (home: string, args: string[]) =>
    spawnSync(process.execPath, [CLI_PATH, ...args], { cwd: box.workspace, env: { ...process.env, CHRONOSCOPE_HOME: home, NO_COLOR: '1' }, encoding: 'utf8' });

  it('is named with what to do, in one line, and nothing is made', () => {
    const file = join(box.workspace, '..', 'store-file');
    writeFileSync(file, 'not a folder\n');
    const run = withHome(file, ['snapshot']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`chronoscope: the store path ${file} is a file, not a folder: point CHRONOSCOPE_HOME at a folder, or move the file away\n`);
    const below = withHome(join(file, 'store'), ['status']);
    expect(below.status).toBe(1);
    expect(below.stderr).toBe(`chronoscope: the store folder ${join(file, 'store')} cannot be made: ${file} is a file, not a folder: point CHRONOSCOPE_HOME at a folder, or move the file away\n`);
  });
});

describe('a 0-byte private index', () => {
  it('does not stop status, which counts the changed files as snapshot would', () => {
    snapshot('first');
    writeFileSync(join(box.workspace, 'a.txt'), 'changed\n');
    writeFileSync(join(box.workspace, 'b.txt'), 'new\n');
    const [id] = readdirSync(join(box.home, 'workspaces'));
    writeFileSync(join(box.home, 'workspaces', id!, 'index'), '');
    const run = box.cli(['status', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect((JSON.parse(run.stdout) as WorkspaceStatus).dirty_files).toBe(2);
    // And snapshot repairs it, as before.
    snapshot('second');
    expect(box.json<WorkspaceStatus>(['status']).dirty_files).toBe(0);
    expect(box.json<Checkpoint[]>(['list'])).toHaveLength(2);
  });
});
