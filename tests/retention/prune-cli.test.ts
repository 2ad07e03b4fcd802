// `chronoscope prune` by hand, through the real CLI: it previews unless --yes
// (refs byte for byte unchanged), removes into the trash with --yes, lists the
// trash, and --undo brings every removed checkpoint back readable. Old
// written-out defaults in config.json (500 / 30 days) delete nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, PruneResult, TrashEntry, UndoResult } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import { seedHistory } from '../../scripts/bench-ui/seed-history.js';
import { tempDirs, type TempDirs } from '../app/helpers.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import { documentedKeep, refsSnapshot } from './rules.js';
import { expectReadable } from './readable.js';

const DAY = 86_400_000;
let dirs: TempDirs;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-prune-');
});
afterEach(() => dirs.cleanup());

const cli = (args: string[]) => runCli([...args, '-w', dirs.workspace], { env: baseEnv(dirs.home) });
async function json<T>(args: string[]): Promise<T> {
  const run = await cli([...args, '--json']);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as T;
}
async function listAll(): Promise<Checkpoint[]> {
  return (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).list();
}

describe('chronoscope prune', () => {
  it('previews without --yes (nothing changes), removes into the trash with --yes, and --undo brings every one back readable', async () => {
    await seedHistory({ home: dirs.home, dir: dirs.workspace, count: 1500, spanMs: 120 * DAY });
    const before = await listAll();
    const refs = refsSnapshot(dirs.home);

    const preview = await json<PruneResult>(['prune']);
    expect(preview.preview).toBe(true);
    expect(preview.removed.length).toBe(before.length - documentedKeep(before, Date.now()).size);
    expect(preview.by_rule.thinned).toBe(preview.removed.length);
    const text = await cli(['prune']);
    expect(text.stdout).toMatch(/would remove [\d,]+ checkpoints \([\d,]+ thinned.*\), keep \d+/);
    expect(text.stdout).toMatch(/nothing changed; run again with --yes/);
    expect(refsSnapshot(dirs.home)).toEqual(refs);

    const done = await json<PruneResult>(['prune', '--yes']);
    expect(done.preview).toBe(false);
    expect(done.removed.sort()).toEqual(preview.removed.sort());
    expect((await listAll()).length).toBe(before.length - done.removed.length);
    const [entry] = (await json<{ trash: TrashEntry[] }>(['prune', '--trash'])).trash;
    expect(entry).toMatchObject({ id: done.trash, count: done.removed.length, automatic: false });
    expect(entry!.expires_ms - entry!.time_ms).toBe(14 * DAY);
    // The damage check does not mistake the trash for checkpoints, nor the other way round.
    const check = await cli(['check']);
    expect(check.code, check.stdout + check.stderr).toBe(0);

    const undo = await json<UndoResult>(['prune', '--undo']);
    expect(undo.restored.sort()).toEqual(done.removed.sort());
    expect((await listAll()).map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect((await json<{ trash: TrashEntry[] }>(['prune', '--trash'])).trash).toEqual([]);
    await expectReadable(dirs.home, dirs.workspace, before.filter((c) => done.removed.includes(c.id)));
    // Nothing left to undo: one clear line.
    const again = await cli(['prune', '--undo']);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/the trash is empty/);
  }, 300_000);

  it('the limits an earlier version wrote out as defaults (500, 30 days, 10,240 MB) remove nothing', async () => {
    await seedHistory({ home: dirs.home, dir: dirs.workspace, count: 800 });
    writeFileSync(join(dirs.home, 'config.json'), JSON.stringify({ retention: { max_checkpoints: 500, max_age_days: 30, max_store_mb: 10_240 } }));
    expect((await json<PruneResult>(['prune', '--yes'])).removed).toEqual([]);
    // The same limit set by the person today (the group carries its version) applies, through the trash.
    writeFileSync(join(dirs.home, 'config.json'), JSON.stringify({ retention: { version: 2, max_checkpoints: 500 } }));
    const done = await json<PruneResult>(['prune', '--yes']);
    expect(done.by_rule.count).toBe(300);
    expect((await listAll()).length).toBe(500);
  }, 120_000);
});
