// chronoscope verify on a real tiny Node project: the person's verifier runs in
// a scratch copy of the checkpoint, never in the workspace; pass exits 0, fail
// 3, error 1; the outcome is recorded in the store; no checkpoint is taken.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, treeFingerprint, type Sandbox } from '../cli/run-cli.js';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

function write(rel: string, text: string): void {
  const full = path.join(sb.workspace, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

/** A project whose test checks add() and uses a dependency from node_modules (never in a checkpoint). */
function tinyProject(addBody: string): void {
  write('package.json', JSON.stringify({ name: 'tiny', version: '1.0.0', type: 'module', scripts: { test: 'node test.js' } }));
  write('add.js', `export function add(a, b) { ${addBody} }\n`);
  write('test.js', "import { add } from './add.js';\nimport { helper } from 'tiny-dep';\nconsole.log('cwd', process.cwd());\nif (add(2, 3) !== 5) { console.error('add(2, 3) gave ' + add(2, 3)); process.exit(1); }\nconsole.log(helper());\n");
}

const JSON_KEYS = ['command', 'dependencies_changed', 'dependencies_changed_paths', 'duration_ms', 'exit_code', 'id', 'output_tail', 'passed'];

function checkpointCount(): number {
  return sb.json<unknown[]>(['list']).length;
}

describe('verify', () => {
  beforeEach(() => {
    write('node_modules/tiny-dep/package.json', JSON.stringify({ name: 'tiny-dep', type: 'module', main: 'index.js' }));
    write('node_modules/tiny-dep/index.js', "export const helper = () => 'dependency ok';\n");
  });

  it('passes, fails and records each against its checkpoint, in a scratch copy outside the workspace', () => {
    tinyProject('return a + b;');
    const good = sb.json<{ id: string }>(['snapshot', '-m', 'good']);
    tinyProject('return a - b;');
    const bad = sb.json<{ id: string }>(['snapshot', '-m', 'bad']);
    // The disk now differs from both: verify must use the checkpoint's files.
    tinyProject('return 5;');
    const disk = treeFingerprint(sb.workspace);
    const count = checkpointCount();

    const pass = sb.cli(['verify', good.id, '--verifier', 'npm test', '--json']);
    expect(pass.code, pass.stderr).toBe(0);
    const passed = JSON.parse(pass.stdout) as Record<string, unknown>;
    expect(Object.keys(passed).sort()).toEqual(JSON_KEYS);
    expect(passed).toMatchObject({ id: good.id, passed: true, exit_code: 0, command: 'npm test' });
    expect(passed['output_tail']).toMatch(/dependency ok/);
    const cwd = /cwd (.*)/.exec(String(passed['output_tail']))?.[1] ?? '';
    expect(cwd.startsWith(fs.realpathSync(sb.workspace))).toBe(false);
    expect(pass.stderr).toMatch(/linked node_modules from the workspace/);

    const fail = sb.cli(['verify', bad.id, '--verifier', 'npm test', '--json']);
    expect(fail.code).toBe(3);
    const failed = JSON.parse(fail.stdout) as Record<string, unknown>;
    expect(failed).toMatchObject({ id: bad.id, passed: false, exit_code: 1 });
    expect(failed['output_tail']).toMatch(/add\(2, 3\) gave -1/);

    // Recorded in the store, not in the checkpoint; no checkpoint taken; workspace untouched.
    const wsDir = fs.readdirSync(path.join(sb.home, 'workspaces'))[0] ?? '';
    const lines = fs.readFileSync(path.join(sb.home, 'workspaces', wsDir, 'verifications.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; passed: boolean; log: string });
    expect(lines.map((l) => [l.id, l.passed])).toEqual([
      [good.id, true],
      [bad.id, false],
    ]);
    expect(fs.readFileSync(lines[1]?.log ?? '', 'utf8')).toMatch(/add\(2, 3\) gave -1/);
    expect(checkpointCount()).toBe(count);
    expect(sb.json<Array<{ id: string }>>(['list']).map((c) => c.id)).toContain(good.id);
    expect(treeFingerprint(sb.workspace)).toBe(disk);
    expect(fs.readdirSync(path.join(sb.home, 'tmp')).filter((n) => n.startsWith('verify-'))).toEqual([]);
  });

  it("auto says what it chose; the workspace's verifier setting is used without --verifier", () => {
    tinyProject('return a + b;');
    sb.json(['snapshot']);
    const auto = sb.cli(['verify', 'latest', '--verifier', 'auto']);
    expect(auto.code, auto.stderr).toBe(0);
    expect(auto.stderr).toMatch(/auto chose "npm test" \(package\.json has a test script\)/);

    const none = sb.cli(['verify', 'latest']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no verifier is set/);

    fs.writeFileSync(path.join(sb.home, 'config.json'), JSON.stringify({ verifier: { [fs.realpathSync(sb.workspace)]: 'node -e "process.exit(7)"' } }));
    const fromSettings = sb.cli(['verify', 'latest', '--json']);
    expect(fromSettings.code).toBe(3);
    expect(JSON.parse(fromSettings.stdout)).toMatchObject({ exit_code: 7, command: 'node -e "process.exit(7)"' });
  });

  it('stops a verifier at the time limit and counts it as failed', () => {
    write('a.txt', 'a\n');
    sb.json(['snapshot']);
    fs.writeFileSync(path.join(sb.home, 'config.json'), JSON.stringify({ verify_timeout_s: 1 }));
    const started = Date.now();
    const run = sb.cli(['verify', 'latest', '--verifier', 'sleep 30', '--json']);
    expect(run.code).toBe(3);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(JSON.parse(run.stdout)).toMatchObject({ passed: false, exit_code: null });
  });

  it('an unknown checkpoint is an error (exit 1) and records nothing', () => {
    write('a.txt', 'a\n');
    sb.json(['snapshot']);
    const run = sb.cli(['verify', 'abcdef12', '--verifier', 'true']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    const wsDir = fs.readdirSync(path.join(sb.home, 'workspaces'))[0] ?? '';
    expect(fs.existsSync(path.join(sb.home, 'workspaces', wsDir, 'verifications.jsonl'))).toBe(false);
  });
});
