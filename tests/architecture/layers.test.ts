// The import rules of the source tree (.dependency-cruiser.cjs): no circles,
// one-way layers, the engine's rooms below its verbs. Runs the real
// dependency-cruiser over the real sources, as `npm run layers` does.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

async function violations(...targets: string[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, [CLI, ...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd: REPO_ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  const result = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to}`);
}

describe('the source tree keeps its layers', () => {
  it('has no import circles and no import against the layers', async () => {
    expect(await violations('electron', 'shared', 'renderer/src')).toEqual([]);
  });

  it('the check sees a circle when there is one', async () => {
    const found = await violations('tests/architecture/fixtures/circle');
    expect(found.some((v) => v.startsWith('no-circular: tests/architecture/fixtures/circle/'))).toBe(true);
  });
});
