// The benchmark runs at a tiny size and prints the promised JSON shape.
// Shape only: speed is the benchmark's business, never a test's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';

const BENCH = join(REPO_ROOT, 'dist/scripts/bench.js');
const CASES = ['first', 'noop', 'edit10_scan', 'edit10_paths', 'watch10', 'list1000', 'diff', 'restore10', 'restore_all', 'hook_pre_edit', 'hook_pre_edit_delegated', 'hook_pre_edit_auto', 'hook_post_edit_auto', 'hook_prompt', 'hook_first_call', 'check_1000', 'check_1000_delta'];

let tmp: string | undefined;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

it('prints one JSON object with every case', () => {
  tmp = mkdtempSync(join(tmpdir(), 'chronoscope-bench-test-'));
  const run = spawnSync(process.execPath, [BENCH, '--files', '300', '--mb', '3', '--runs', '2', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp, CHRONOSCOPE_HOME: join(tmp, 'home') },
    timeout: 300_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const report = JSON.parse(lines[0] ?? '') as {
    workspace: { files: number; bytes: number };
    results: Array<{ case: string; engine_ms: number; baseline_ms: number; ratio: number }>;
    peak_rss_mb: number;
    peak_tree_rss_mb: number | null;
    app: { peak_mb: number; settled_mb: number; tree_peak_mb: number } | null;
  };
  expect(report.workspace.files).toBe(300);
  expect(report.workspace.bytes).toBeGreaterThan(2 * 1024 * 1024);
  expect(report.results.map((r) => r.case)).toEqual(CASES);
  for (const result of report.results) {
    for (const key of ['engine_ms', 'baseline_ms', 'ratio'] as const) {
      expect(Number.isFinite(result[key]), `${result.case}.${key}`).toBe(true);
      expect(result[key]).toBeGreaterThan(0);
    }
  }
  expect(report.peak_rss_mb).toBeGreaterThan(0);
  // git's child processes counted too (sampled from /proc where there is one).
  if (process.platform === 'linux') {
    expect(report.peak_tree_rss_mb).toBeGreaterThanOrEqual(report.peak_rss_mb * 0.9);
    expect(report.app?.settled_mb).toBeGreaterThan(0);
  }
}, 300_000); // as long as its bench process may take (the spawnSync timeout): under load it once ran past 120 s

it('times the five agents’ warm hooks in turn on one service with --agents', () => {
  tmp = mkdtempSync(join(tmpdir(), 'chronoscope-bench-test-'));
  const run = spawnSync(process.execPath, [BENCH, '--files', '300', '--mb', '3', '--runs', '2', '--json', '--hook-only', '--agents'], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp, CHRONOSCOPE_HOME: join(tmp, 'home') },
    timeout: 300_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(run.stdout.trim()) as { results: Array<{ case: string; engine_ms: number; baseline_ms: number }> };
  const auto = report.results.filter((r) => r.case.includes('_auto'));
  expect(auto.map((r) => r.case)).toEqual(['hook_pre_edit_auto', 'hook_post_edit_auto', 'hook_auto_codex', 'hook_auto_gemini', 'hook_auto_copilot', 'hook_auto_opencode']);
  for (const r of auto) expect(r.engine_ms > 0 && r.baseline_ms > 0, r.case).toBe(true);
}, 300_000);
