// Exit codes and errors as README's CLI section states them, from the real
// built CLI: 2 for usage (an unknown option, a malformed id or path, `daemon
// --json` alone), 1 for a failure; with --json an error is one JSON object on
// stderr and stdout stays empty.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotResult } from '../../shared/model.js';
import { makeSandbox, type CliRun, type Sandbox } from './run-cli.js';

interface JsonError {
  error: { code: string; message: string; exit_code: number };
}

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
  writeFileSync(join(box.workspace, 'a.txt'), 'a\n');
});
afterEach(() => box.cleanup());

/** The one JSON object on stderr of a failed --json run. */
function jsonError(run: CliRun): JsonError {
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!) as JsonError;
  expect(parsed.error.exit_code).toBe(run.code);
  expect(parsed.error.message).not.toMatch(/^chronoscope: /);
  return parsed;
}

describe('exit codes', () => {
  it('exits 2 for a malformed id or path and 1 for an id that is well formed but not there', () => {
    expect(box.json<SnapshotResult>(['snapshot']).id).not.toBeNull();
    for (const args of [['show', 'HEAD~1'], ['restore', 'zz', '--yes'], ['diff', 'latest', ':a.txt'], ['pin', 'main'], ['restore', 'latest', '--path', '../x', '--yes']]) {
      const run = box.cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(/^chronoscope: (not a checkpoint id|bad path)/);
    }
    const missing = box.cli(['show', 'deadbeef']);
    expect(missing.code, missing.stderr).toBe(1);
  });

  it('refuses `daemon --json` without --status or --stop with its usage, exit 2, and serves nothing', () => {
    const run = box.cli(['daemon', '--json']);
    expect(run.code, run.stderr).toBe(2);
    expect(jsonError(run).error).toMatchObject({ code: 'usage', message: expect.stringMatching(/^--json goes with --status or --stop \(usage: chronoscope daemon /) });
    // Nothing serves the store afterwards.
    expect(box.json<{ running: boolean }>(['daemon', '--status']).running).toBe(false);
  });
});

describe('errors with --json', () => {
  it('prints a usage error (unknown option) as one JSON object on stderr, exit 2', () => {
    const run = box.cli(['list', '--frobnicate', '--json']);
    expect(run.code).toBe(2);
    expect(jsonError(run).error).toEqual({ code: 'usage', message: "unknown option '--frobnicate'", exit_code: 2 });
  });

  it('prints a malformed id as JSON, exit 2, and a missing one as JSON, exit 1', () => {
    box.json<SnapshotResult>(['snapshot']);
    const bad = box.cli(['show', 'HEAD~1', '--json']);
    expect(bad.code).toBe(2);
    expect(jsonError(bad).error).toMatchObject({ code: 'usage', message: expect.stringMatching(/^not a checkpoint id: "HEAD~1"/) });
    const missing = box.cli(['show', 'deadbeef', '--json']);
    expect(missing.code).toBe(1);
    expect(jsonError(missing).error).toMatchObject({ code: 'not_found', exit_code: 1 });
  });

  it('prints a failure of the command itself as JSON (a missing workspace folder)', () => {
    const run = box.cli(['status', '--json', '--workspace', join(box.workspace, 'nope')]);
    expect(run.code).toBe(1);
    expect(jsonError(run).error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/^no such folder: /) });
  });

  it('keeps plain lines without --json: one line, the help hint at its end', () => {
    const run = box.cli(['list', '--frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^chronoscope: unknown option '--frobnicate' \(run 'chronoscope list --help' for usage\)\n$/);
    const none = box.cli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("chronoscope: missing command (run 'chronoscope --help' for usage)\n");
  });

  it('refuses --all with --limit, which would contradict it', () => {
    const run = box.cli(['list', '--all', '--limit', '3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^chronoscope: option '-a, --all' cannot be used with option '-n, --limit <n>' \(run 'chronoscope list --help' for usage\)\n$/);
  });
});
