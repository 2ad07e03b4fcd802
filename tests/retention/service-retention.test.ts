// The background service (a real `chronoscope daemon` process) applying
// retention on its own with default settings: a long history survives, an
// older one is thinned exactly as docs/store-health.md says (tests/retention/rules.ts
// states those rules again, independently of the engine), and what went can
// be brought back whole with `prune --undo`.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Checkpoint, TrashEntry, UndoResult } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import { seedHistory } from '../../scripts/bench-ui/seed-history.js';
import { sleep, tempDirs, waitFor, type TempDirs } from '../app/helpers.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import { CLI_PATH } from '../paths.js';
import { documentedKeep, refsSnapshot } from './rules.js';
import { expectReadable } from './readable.js';

const DAY = 86_400_000;
let dirs: TempDirs;
let child: ChildProcess | null = null;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-retention-');
});

afterEach(async () => {
  if (child) {
    await runCli(['daemon', '--stop'], { env: baseEnv(dirs.home) }).catch(() => undefined);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = null;
  }
  await dirs.cleanup();
});

/** `chronoscope daemon -w <ws>` with no config.json: the defaults a new user gets. */
function startService(): number {
  const started = Date.now();
  child = spawn(process.execPath, [CLI_PATH, 'daemon', '-w', dirs.workspace], { env: baseEnv(dirs.home), stdio: ['ignore', 'ignore', 'ignore'] });
  return started;
}

/** The service's retention pass for this workspace has run (it records each pass in prune.json, removals or not). */
function retentionRan(since: number): Promise<{ time_ms: number; removed: number; kept: number }> {
  return waitFor(
    "the service's retention pass",
    () => {
      try {
        const last = JSON.parse(readFileSync(join(dirs.home, 'prune.json'), 'utf8')) as { time_ms: number; removed: number; kept: number; workspace: string };
        return last.time_ms >= since ? last : undefined;
      } catch {
        return undefined;
      }
    },
    180_000,
  );
}

async function listAll(): Promise<Checkpoint[]> {
  return (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).list();
}

describe('retention by the service, with default settings', () => {
  it('a 6,000-checkpoint history spanning 17 days survives a minute of the service: every ref byte for byte', async () => {
    const seeded = await seedHistory({ home: dirs.home, dir: dirs.workspace, count: 6000 });
    expect(seeded.at(-1)!.time_ms - seeded[0]!.time_ms).toBeGreaterThan(16 * DAY);
    const before = refsSnapshot(dirs.home);
    const started = startService();
    const pass = await retentionRan(started);
    expect(pass).toMatchObject({ removed: 0, kept: 6000 });
    // The rest of the minute the issue measured: nothing later removes anything either.
    await sleep(Math.max(0, started + 60_000 - Date.now()));
    const after = refsSnapshot(dirs.home);
    for (const [ref, text] of before) if (ref.includes('/cp/')) expect(after.get(ref), ref).toBe(text);
    expect((await listAll()).length).toBe(6000);
  }, 300_000);

  it('a 10,000-checkpoint history spanning 60 days keeps all younger than 30 days and thins the rest as documented; prune --undo brings it all back', async () => {
    await seedHistory({ home: dirs.home, dir: dirs.workspace, count: 10_000, spanMs: 60 * DAY });
    const before = await listAll();
    expect(before.length).toBe(10_000);
    const started = startService();
    const pass = await retentionRan(started);
    const after = await listAll();
    const left = new Set(after.map((c) => c.id));
    // The pass's own time is what "younger than 30 days" was measured against.
    const [entry] = JSON.parse((await runCli(['prune', '--trash', '--json', '-w', dirs.workspace], { env: baseEnv(dirs.home) })).stdout).trash as TrashEntry[];
    expect(entry?.automatic).toBe(true);
    const expected = documentedKeep(before, entry!.time_ms);
    expect([...left].sort()).toEqual([...expected].sort());
    for (const c of before) if (entry!.time_ms - c.time_ms < 30 * DAY) expect(left.has(c.id)).toBe(true);
    expect(pass.removed).toBe(before.length - expected.size);
    expect(pass.removed).toBeGreaterThan(1000);

    // Undo (the CLI, while the service runs): every removed checkpoint is back and readable.
    const undo = await runCli(['prune', '--undo', '--json', '-w', dirs.workspace], { env: baseEnv(dirs.home) });
    expect(undo.code, undo.stderr).toBe(0);
    const undone = JSON.parse(undo.stdout) as UndoResult;
    const removed = before.filter((c) => !left.has(c.id));
    expect(undone.restored.sort()).toEqual(removed.map((c) => c.id).sort());
    expect((await listAll()).map((c) => c.id)).toEqual(before.map((c) => c.id));
    await expectReadable(dirs.home, dirs.workspace, removed);
  }, 900_000);
});
