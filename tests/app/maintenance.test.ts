// The store looking after itself while the app runs: once nothing has been
// recorded for a while, the app compresses the store when due and checks the
// watched workspaces' checkpoints; while work goes on, it does neither.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { openStore } from '../../electron/engine/index.js';
import { fsckStore } from '../../electron/engine/upkeep.js';
import { sleep, tempDirs, waitFor, type TempDirs } from './helpers.js';

let dirs: TempDirs;
let app: AppService | null = null;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-maintenance-');
  const ws = await (await openStore({ home: dirs.home })).workspace(dirs.workspace);
  for (let i = 0; i < 4; i++) {
    await writeFile(join(dirs.workspace, `f${i}.txt`), `version ${i}\n`);
    await ws.snapshot({ reason: `step ${i}` });
  }
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await dirs.cleanup();
});

const checkRecord = async (): Promise<string> => {
  const id = (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).meta.id;
  return join(dirs.home, 'workspaces', id, 'check.json');
};
const packs = (): number => readdirSync(join(dirs.home, 'git', 'objects', 'pack')).filter((n) => n.endsWith('.pack')).length;

describe('maintenance in the app', () => {
  it('when quiet: compresses the store once due and checks the watched workspace, leaving it valid', async () => {
    expect(packs()).toBeGreaterThan(1);
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false, maintenance: { firstMs: 50, idleMs: 0, upkeepLimits: { packLimit: 1 } } });
    await app.addWorkspace(dirs.workspace);
    const record = await checkRecord();
    await waitFor('the check record', () => existsSync(record));
    await waitFor('one pack', () => packs() === 1);
    expect(await fsckStore(dirs.home)).toBe('');
    expect((await (await app.workspace(dirs.workspace)).list()).map((c) => c.damaged === true)).toEqual([false, false, false, false]);
  });

  it('while work goes on: neither', async () => {
    const before = packs();
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false, maintenance: { firstMs: 50, idleMs: 600_000, upkeepLimits: { packLimit: 1 } } });
    await app.addWorkspace(dirs.workspace);
    await sleep(1500);
    expect(existsSync(await checkRecord())).toBe(false);
    expect(packs()).toBe(before);
  });

  it('"upkeep": false in the settings: neither, however quiet', async () => {
    await writeFile(join(dirs.home, 'config.json'), JSON.stringify({ upkeep: false }));
    const before = packs();
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false, maintenance: { firstMs: 50, idleMs: 0, everyMs: 200, upkeepLimits: { packLimit: 1 } } });
    await app.addWorkspace(dirs.workspace);
    await sleep(1500);
    expect(existsSync(await checkRecord())).toBe(false);
    expect(packs()).toBe(before);
  });
});

describe('retention applied by the app itself', () => {
  it("drops what Settings' limits say when quiet, never a pinned one, the newest, one an effect or a pending approval names, or the one the person looks at", async () => {
    // Seven checkpoints in all (four from beforeEach, three more); keep two by count.
    const ws = await (await openStore({ home: dirs.home })).workspace(dirs.workspace);
    for (let i = 4; i < 7; i++) {
      await writeFile(join(dirs.workspace, `f${i}.txt`), `version ${i}\n`);
      await ws.snapshot({ reason: `step ${i}` });
    }
    const all = await ws.list(); // newest first: step 6 … step 0
    expect(all).toHaveLength(7);
    const [newest, , asked, looked, byEffect, pinned, oldest] = all.map((c) => c.id);
    await ws.pin(pinned!, true);
    // An agent waits for the person to approve a restore to `asked` (chronoscope mcp's request_restore).
    const { fileRequest } = await import('../../electron/approvals/requests.js');
    await fileRequest(dirs.home, { workspace: ws.root, checkpoint: asked!, paths: [], agent: 'claude-code', waitMs: 600_000 });
    const { EffectLedger } = await import('../../electron/effects/ledger.js');
    await new EffectLedger(dirs.home, ws.meta.id).append({ workspace: ws.root, kind: 'git_push', target: 'origin main', command: 'git push origin main', compensation: null, summary: 'pushed', source: 'hook', status: 'happened', checkpoint: byEffect! });
    await writeFile(join(dirs.home, 'config.json'), JSON.stringify({ retention: { max_checkpoints: 2, max_age_days: 0 } }));

    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false, maintenance: { firstMs: 50, idleMs: 0, everyMs: 100 } });
    const pruned: string[][] = [];
    app.on('checkpoints:pruned', (e) => pruned.push(e.removed));
    // What the renderer says when the person selects a checkpoint (timeline:viewing), before any tick can prune.
    app.viewing(ws.root, [looked!]);
    await app.addWorkspace(dirs.workspace);
    await waitFor('retention to run', () => pruned.length > 0);
    const left = (await (await app.workspace(dirs.workspace)).list()).map((c) => c.id);
    // Over the limit still (protected ones count toward it), but only the unprotected went: step 5 and step 0.
    expect(left.sort()).toEqual([newest, asked, looked, byEffect, pinned].sort());
    expect(pruned.flat().sort()).toEqual([all[1]!.id, oldest].sort());
    const record = JSON.parse(readFileSync(join(dirs.home, 'prune.json'), 'utf8')) as { removed: number; kept: number; workspace: string };
    expect(record).toMatchObject({ removed: 2, kept: 5, workspace: ws.root });
  });
});
