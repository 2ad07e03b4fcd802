import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EffectLedger, type EffectInput } from '../../electron/effects/ledger.js';

let home: string;

const sample = (target: string): EffectInput => ({
  kind: 'git_push',
  target,
  command: `git push origin ${target}`,
  compensation: null,
  summary: `push ${target}`,
  workspace: '/w',
  source: 'hook',
  status: 'intended',
  checkpoint: null,
});

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'chronoscope-ledger-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('EffectLedger', () => {
  it('appends one JSON line per record under <home>/workspaces/<id>/effects.jsonl and lists them oldest first', async () => {
    const ledger = new EffectLedger(home, 'abc');
    expect(await ledger.list()).toEqual([]);
    const b = await ledger.append({ ...sample('b'), time_ms: 2000 });
    const a = await ledger.append({ ...sample('a'), time_ms: 1000 });
    expect(ledger.path).toBe(join(home, 'workspaces', 'abc', 'effects.jsonl'));
    const text = await readFile(ledger.path, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2);
    expect((await ledger.list()).map((r) => r.id)).toEqual([a.id, b.id]);
    expect(a.time).toBe(new Date(1000).toISOString());
    expect((await ledger.list({ sinceMs: 1500 })).map((r) => r.target)).toEqual(['b']);
  });

  it('folds a later status line into its record without rewriting it', async () => {
    const ledger = new EffectLedger(home, 'abc');
    const rec = await ledger.append(sample('main'));
    const before = await readFile(ledger.path, 'utf8');
    expect(await ledger.setStatus(rec.id, 'happened')).toMatchObject({ id: rec.id, status: 'happened' });
    expect((await readFile(ledger.path, 'utf8')).startsWith(before)).toBe(true);
    expect((await ledger.list())[0]?.status).toBe('happened');
    expect(await ledger.setStatus('nope', 'failed')).toBeNull();
  });

  it('never lets a later "denied" undo a call seen to run, but lets a run undo "denied"', async () => {
    const ledger = new EffectLedger(home, 'abc');
    // A PostToolBatch's inference written after a PostToolUse (two hook processes at once).
    const ran = await ledger.append(sample('ran'));
    await ledger.setStatus(ran.id, 'happened');
    expect(await ledger.setStatus(ran.id, 'denied')).toMatchObject({ status: 'happened' });
    // A PostToolUse that came after the batch.
    const late = await ledger.append(sample('late'));
    await ledger.setStatus(late.id, 'denied');
    await ledger.setStatus(late.id, 'happened');
    expect(Object.fromEntries((await ledger.list()).map((r) => [r.target, r.status]))).toEqual({ ran: 'happened', late: 'happened' });
  });

  it('skips a torn last line and keeps appending after it', async () => {
    const ledger = new EffectLedger(home, 'abc');
    await ledger.append(sample('one'));
    await appendFile(ledger.path, '{"id":"torn","kind":"git_pu');
    expect((await ledger.list()).map((r) => r.target)).toEqual(['one']);
    await ledger.append(sample('two'));
    expect((await ledger.list()).map((r) => r.target)).toEqual(['one', 'two']);
  });

  it('loses nothing when many appends race', async () => {
    const ledger = new EffectLedger(home, 'abc');
    const other = new EffectLedger(home, 'abc');
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? ledger : other).append(sample(`b${i}`))));
    expect(await ledger.list()).toHaveLength(40);
  });

  it('refuses a workspace id that could escape the store', () => {
    expect(() => new EffectLedger(home, '../x')).toThrow();
  });
});
