// A long snapshot says how many files are hashed of how many: update-index's
// per-file lines are counted as they arrive, and the report is throttled —
// nothing in the first second, then at most every 250 ms, and a last word.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotProgress } from '../../electron/engine/api.js';
import { progressMessage, throttleProgress } from '../../electron/engine/progress.js';
import { scanToTree } from '../../electron/engine/scan/scan.js';
import { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('snapshot progress', () => {
  it('counts the files update-index hashed up to the total', async () => {
    for (let i = 0; i < 300; i++) write(s.ws, `d${i % 7}/f${i}.txt`, `file ${i}\n`);
    const seen: [number, number][] = [];
    const ctx = (s.workspace as WorkspaceImpl).ctx;
    const scan = await scanToTree(ctx.git, ctx.root, { maxFileBytes: 1 << 20, onProgress: (hashed, total) => seen.push([hashed, total]) });
    expect(scan.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(seen[0]).toEqual([0, 300]);
    expect(seen[seen.length - 1]).toEqual([300, 300]);
    for (let i = 1; i < seen.length; i++) expect((seen[i] as [number, number])[0]).toBeGreaterThanOrEqual((seen[i - 1] as [number, number])[0]);
  });

  it('says nothing in the first second, then at most every 250 ms, then a last word', () => {
    let t = 0;
    const said: SnapshotProgress[] = [];
    const p = throttleProgress((x) => said.push(x), '/w', () => t);
    p.update(10, 100);
    t = 900;
    p.update(50, 100);
    expect(said).toEqual([]);
    t = 1000;
    p.update(60, 100);
    t = 1100;
    p.update(70, 100);
    t = 1300;
    p.update(90, 100);
    p.update(100, 100);
    p.end();
    expect(said.map((x) => [x.hashed, x.done])).toEqual([
      [60, false],
      [90, false],
      [100, true],
    ]);
    expect(progressMessage(said[1] as SnapshotProgress)).toBe('hashing 90 of 100 files');
  });

  it('a quick snapshot says nothing at all', () => {
    const said: SnapshotProgress[] = [];
    const p = throttleProgress((x) => said.push(x), '/w', () => 0);
    p.update(5, 5);
    p.end();
    expect(said).toEqual([]);
  });
});
