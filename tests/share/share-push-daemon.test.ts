// The push side over a real git server process (git daemon, the git://
// protocol), so the protocol is real and not only file paths.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { git, gitOk, makeTeam, pollFor, remoteRefs, type Team } from './push-fixture.js';
import { removeTempProject } from '../support/temp-project.js';

let team: Team | undefined;
let daemon: ChildProcess | undefined;
afterEach(async () => {
  if (daemon?.pid !== undefined) process.kill(daemon.pid, 'SIGTERM');
  await new Promise((r) => (daemon && daemon.exitCode === null ? daemon.once('exit', r) : r(null)));
  if (team) await removeTempProject(team.base);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

it('a git push over git:// shares to the same server', async () => {
  team = makeTeam();
  const port = await freePort();
  daemon = spawn('git', ['daemon', '--export-all', '--enable=receive-pack', `--base-path=${team.base}`, '--reuseaddr', '--listen=127.0.0.1', `--port=${port}`, team.base], { stdio: 'ignore' });
  const url = `git://127.0.0.1:${port}/remote.git`;
  await pollFor('git daemon to accept', () => git(team!.base, ['ls-remote', url]).code === 0);
  const a = team.clone('ann', { remoteName: 'server', url });
  writeFileSync(join(a.dir, 'a.txt'), 'one\n');
  expect(a.cli(['snapshot']).code).toBe(0);
  const enabled = a.cli(['share', 'enable', '--json']);
  expect(enabled.code, enabled.stderr).toBe(0);
  const ns = (JSON.parse(enabled.stdout) as { namespace: string }).namespace;
  gitOk(a.dir, ['add', '-A']);
  gitOk(a.dir, ['commit', '-q', '-m', 'one']);
  expect(git(a.dir, ['push', 'server', 'HEAD:main']).code).toBe(0);
  const log = await pollFor('the share log on the server', () => remoteRefs(team!.remote).get(`${ns}/log`));
  expect(gitOk(team.remote, ['rev-list', '--count', log]).trim()).toBe('2'); // the log commit and the checkpoint
  await pollFor('the notes on the server', () => remoteRefs(team!.remote).get(`${ns}/notes`));
});
