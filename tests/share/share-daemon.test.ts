// `share pull` over a real git server process (git daemon, the git://
// protocol v2): listing, the blob-less fetch and the fetch of a blob by id all
// go through upload-pack over a socket, not file paths.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { blobId, makeTeam, storeLacks, type Team } from './team.js';

let team: Team | undefined;
let daemon: ChildProcess | undefined;
afterEach(() => {
  if (daemon?.pid !== undefined && daemon.exitCode === null) daemon.kill('SIGTERM');
  daemon = undefined;
  team?.cleanup();
  team = undefined;
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the daemon accepts a connection (polled, no fixed sleep). */
async function accepting(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`git daemon exited ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setImmediate(r));
  }
}

it('pulls over git daemon: lists without the 4 MB file, then fetches it by id for a diff', async () => {
  team = makeTeam();
  const port = await freePort();
  daemon = spawn('git', ['daemon', '--export-all', `--base-path=${dirname(team.remote)}`, '--listen=127.0.0.1', `--port=${port}`, '--reuseaddr', dirname(team.remote)], {
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull },
    stdio: 'ignore',
  });
  await accepting(port, daemon);
  const url = `git://127.0.0.1:${port}/${basename(team.remote)}`;

  const alice = team.clone('alice');
  writeFileSync(join(alice.dir, 'big.bin'), randomBytes(4 * 1024 * 1024));
  writeFileSync(join(alice.dir, 'notes.txt'), 'one\n');
  expect(alice.cli(['snapshot', '-m', 'first']).code).toBe(0);
  writeFileSync(join(alice.dir, 'notes.txt'), 'two\n');
  expect(alice.cli(['snapshot', '-m', 'second']).code).toBe(0);
  team.publish(alice);
  const big = blobId(join(alice.dir, 'big.bin'));

  const erin = team.clone('erin', { url });
  expect(erin.json<{ filtered: boolean; shared_checkpoints: number }>(['share', 'pull'])).toMatchObject({ filtered: true, shared_checkpoints: 2 });
  expect(storeLacks(erin.gitDir, big)).toBe(true);
  const theirs = erin.json<Checkpoint[]>(['list', '--all']).filter((c) => c.shared);
  // `show` of her first checkpoint: its own changes need the 4 MB file, fetched by id from the daemon.
  const shown = erin.json<{ files: { path: string }[] }>(['show', theirs[1]!.id]);
  expect(shown.files.map((f) => f.path).sort()).toEqual(['README.md', 'big.bin', 'notes.txt']);
  expect(storeLacks(erin.gitDir, big)).toBe(false);
});
