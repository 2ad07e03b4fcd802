// A long snapshot's progress reaches the hosts as the `progress` event, for
// every store the service opens (again after a settings change too).
import { afterEach, expect, it } from 'vitest';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import type { StoreOptions } from '../../electron/engine/api.js';
import { openStore } from '../../electron/engine/index.js';
import { tempDirs, type TempDirs } from './helpers.js';

let dirs: TempDirs | undefined;
let app: AppService | undefined;
afterEach(async () => {
  await app?.dispose();
  await dirs?.cleanup();
});

it('turns the engine\'s hashing progress into progress events with counts', async () => {
  dirs = await tempDirs();
  const given: StoreOptions[] = [];
  app = await createAppService({
    home: dirs.home,
    host: 'browser',
    version: '0.0.0-test',
    watch: false,
    openStore: (options) => {
      given.push(options ?? {});
      return openStore(options);
    },
  });
  const events: unknown[] = [];
  app.on('progress', (p) => events.push(p));
  await app.updateSettings({ max_file_mb: 10 });
  expect(given).toHaveLength(2);
  for (const options of given) options.onProgress?.({ root: dirs.workspace, hashed: 1500, total: 10000, done: false });
  expect(events).toEqual([
    { workspace: dirs.workspace, message: 'hashing 1,500 of 10,000 files', hashed: 1500, total: 10000 },
    { workspace: dirs.workspace, message: 'hashing 1,500 of 10,000 files', hashed: 1500, total: 10000 },
  ]);
});
