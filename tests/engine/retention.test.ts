import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import { seedHistory } from '../../scripts/bench-ui/seed-history.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox | undefined;
afterEach(() => s?.cleanup());

async function makeCheckpoints(sb: Sandbox, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    write(sb.ws, 'f.txt', `version ${i}\n`);
    ids.push((await sb.workspace.snapshot({ reason: `v${i}` })).id as string);
  }
  return ids;
}

describe('retention', () => {
  it('keeps at most N, never drops the newest or a pinned one, and gc leaves the store consistent', async () => {
    s = await sandbox({ settings: { retention: { max_checkpoints: 3, max_age_days: 30, max_store_mb: 10_240 } } });
    const ids = await makeCheckpoints(s, 6);
    await s.workspace.pin(ids[0]!, true);
    const result = await s.workspace.prune({ compact: true });
    expect(result.removed.sort()).toEqual([ids[1], ids[2], ids[3]].sort());
    expect(result.gc_ran).toBe(true);
    const left = (await s.workspace.list()).map((c) => c.id);
    expect(left).toEqual([ids[5], ids[4], ids[0]]);
    expect((await s.workspace.resolve(ids[0]!)).pinned).toBe(true);
    expect(storeGit(s.storeHome, ['fsck', '--strict'])).toBe('');
    // the private index still works after gc
    write(s.ws, 'g.txt', 'new\n');
    const next = await s.workspace.snapshot();
    expect(next.id).not.toBeNull();
    await s.workspace.restore(ids[0]!);
    expect(fs.readFileSync(path.join(s.ws, 'f.txt'), 'utf8')).toBe('version 0\n');
  });

  it('drops checkpoints older than max_age_days but never the newest', async () => {
    s = await sandbox();
    const ids = await makeCheckpoints(s, 3);
    const aged = await openStore({ home: s.storeHome, settings: { retention: { max_checkpoints: 500, max_age_days: 0.000001, max_store_mb: 10_240 } } });
    const ws = await aged.workspace(s.ws);
    // max_age_days 0.000001 is ~86 ms: wait past it even when snapshots are fast.
    await new Promise((r) => setTimeout(r, 200));
    const result = await ws.prune();
    expect(result.removed.sort()).toEqual([ids[0], ids[1]].sort());
    expect((await ws.list()).map((c) => c.id)).toEqual([ids[2]]);
  });

  it('over the budget, the trash is emptied first (oldest entry first), and checkpoints younger than 30 days never go', async () => {
    s = await sandbox();
    for (let i = 0; i < 4; i++) {
      write(s.ws, `big${i}.bin`, randomBytes(300_000));
      await s.workspace.snapshot();
      fs.rmSync(path.join(s.ws, `big${i}.bin`));
    }
    write(s.ws, 'small.txt', 'small\n');
    await s.workspace.snapshot();
    // A prune by hand puts the big ones into the trash: that frees nothing yet.
    const byHand = await (await (await openStore({ home: s.storeHome, settings: { retention: { version: 2, max_checkpoints: 1, max_age_days: null, max_store_mb: null } } })).workspace(s.ws)).prune({ compact: true });
    expect(byHand.removed).toHaveLength(4);
    expect(byHand.store_bytes_after).toBeGreaterThan(1_000_000);
    const capped = await openStore({ home: s.storeHome, settings: { retention: { version: 2, max_checkpoints: null, max_age_days: null, max_store_mb: 0.5 } } });
    const ws = await capped.workspace(s.ws);
    const result = await ws.prune({ compact: true });
    expect(result.trash_emptied.for_budget).toBe(1);
    expect(result.removed).toEqual([]);
    expect(result.store_bytes_after).toBeLessThan(500_000);
    expect(await ws.trash()).toEqual([]);
    expect((await ws.list())[0]!.reason).toBe('Manual checkpoint');
    expect(storeGit(s.storeHome, ['fsck', '--strict'])).toBe('');
  });

  it('over the budget with an empty trash, a tenth of the oldest thinned checkpoints goes into the trash', async () => {
    s = await sandbox();
    const seeded = await seedHistory({ home: s.storeHome, dir: s.ws, count: 60, endMs: Date.now() - 100 * 86_400_000 });
    const capped = await openStore({ home: s.storeHome, settings: { retention: { version: 2, max_checkpoints: null, max_age_days: null, max_store_mb: 0.001 } } });
    const ws = await capped.workspace(s.ws);
    const before = await ws.list();
    const result = await ws.prune({ compact: true });
    expect(result.by_rule.budget).toBeGreaterThan(0);
    const budgetGone = before.filter((c) => result.removed.includes(c.id) && c.time_ms <= seeded[5]!.time_ms);
    expect(budgetGone.length).toBeGreaterThan(0);
    expect(result.trash).not.toBeNull();
    const [entry] = await ws.trash();
    expect(entry?.by_rule.budget).toBe(result.by_rule.budget);
  });

  it('the trash keeps a removal 14 days, objects included, then the next pass empties it and compaction frees its objects', async () => {
    s = await sandbox();
    const ids = await makeCheckpoints(s, 4);
    const limited = await (await openStore({ home: s.storeHome, settings: { retention: { version: 2, max_checkpoints: 2, max_age_days: null, max_store_mb: null } } })).workspace(s.ws);
    const first = await limited.prune({ compact: true });
    expect(first.removed.sort()).toEqual([ids[0], ids[1]].sort());
    // Through gc --prune=now, the trash keeps every object of what it holds.
    expect(storeGit(s.storeHome, ['cat-file', '-t', `${ids[0]}^{tree}`]).trim()).toBe('tree');
    expect(storeGit(s.storeHome, ['for-each-ref', '--format=%(refname)', 'refs/chronoscope-trash/']).trim().split('\n')).toHaveLength(2);
    // Fifteen days later (the trash's own record of when it was made, moved back):
    const log = path.join(s.storeHome, 'workspaces', limited.meta.id, 'trash.json');
    const record = JSON.parse(fs.readFileSync(log, 'utf8')) as { entries: { time_ms: number }[] };
    for (const e of record.entries) e.time_ms -= 15 * 86_400_000;
    fs.writeFileSync(log, JSON.stringify(record));
    const later = await (await openStore({ home: s.storeHome })).workspace(s.ws);
    const second = await later.prune({ compact: true });
    expect(second.trash_emptied.expired).toBe(1);
    expect(await later.trash()).toEqual([]);
    expect(storeGit(s.storeHome, ['for-each-ref', 'refs/chronoscope-trash/']).trim()).toBe('');
    // The same pass compacted after emptying it: the objects are gone.
    expect(() => storeGit(s!.storeHome, ['cat-file', '-e', ids[0]!])).toThrow();
    expect((await later.list()).map((c) => c.id)).toEqual([ids[3], ids[2]]);
  });
});

