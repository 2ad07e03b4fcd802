// Settings' sharing switch through the router (share:get / share:set) with the
// real app service and real git: unavailable outside a git repository, on and
// off again byte for byte, the remote shown with credentials masked.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { InvokeResult, ShareSwitch } from '../../shared/ipc.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { createRouter } from '../../electron/router/index.js';
import { folderFingerprint, gitOk, makeTeam, type Team } from './push-fixture.js';
import { removeTempProject } from '../support/temp-project.js';

let team: Team | undefined;
let app: AppService | undefined;
afterEach(async () => {
  await app?.dispose();
  if (team) await removeTempProject(team.base);
});

function ok(result: InvokeResult<unknown>): ShareSwitch {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as ShareSwitch;
}

it('turns sharing on and off for a workspace, showing where it goes', async () => {
  team = makeTeam();
  const a = team.clone('ann', { remoteName: 'team' });
  gitOk(a.dir, ['remote', 'set-url', '--push', 'team', 'https://ann:s3cr3t-pass@git.example.com/x.git']);
  app = await createAppService({ home: a.home, host: 'browser', version: '0.0.0-test', watch: false });
  const router = createRouter(app);
  const hooks = join(a.dir, '.git', 'hooks');
  const before = folderFingerprint(hooks);

  const off = ok(await router.invoke('share:get', { workspace: a.dir }));
  expect(off).toMatchObject({ available: true, enabled: false, remote: 'team', url: 'https://***@git.example.com/x.git' });
  const on = ok(await router.invoke('share:set', { workspace: a.dir, enabled: true }));
  expect(on.enabled).toBe(true);
  expect(on.namespace).toMatch(/^refs\/chronoscope\/ann-example.com\//);
  expect(existsSync(join(hooks, 'pre-push'))).toBe(true);
  expect(ok(await router.invoke('share:set', { workspace: a.dir, enabled: false })).enabled).toBe(false);
  expect(folderFingerprint(hooks)).toEqual(before);

  const plain = join(team.base, 'seed'); // a repository with one remote: available; a non-repository is not
  expect(ok(await router.invoke('share:get', { workspace: plain })).available).toBe(true);
  const bad = await router.invoke('share:set', { workspace: a.dir, enabled: 'yes' });
  expect(bad.ok).toBe(false);
});

it('is unavailable, with the reason, outside a git repository', async () => {
  team = makeTeam();
  const a = team.clone('ann');
  const folder = join(team.base, 'not-a-repo');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(folder);
  app = await createAppService({ home: a.home, host: 'browser', version: '0.0.0-test', watch: false });
  const state = ok(await createRouter(app).invoke('share:get', { workspace: folder }));
  expect(state.available).toBe(false);
  expect(state.reason).toMatch(/not a git repository/);
});
