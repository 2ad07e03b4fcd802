// The browser host as a real process: `chronoscope serve` with a temporary
// store and workspace. Who gets in (token, then cookie), who does not (no
// token, foreign Origin, rebinding Host, sockets without token or Origin), the
// WebSocket carrying the router and its events, and a clean Ctrl-C.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { ServerMessage } from '../../shared/ipc.js';
import { CLI_PATH, REPO_ROOT } from '../paths.js';
import { httpGet, messages, openSocket, startServe, waitForMessage, type ServeProcess } from './serve-process.js';

let base: string;
let home: string;
let workspace: string;
let server: ServeProcess;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'chronoscope-serve-'));
  home = join(base, 'home');
  workspace = join(base, 'project');
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, 'a.txt'), 'one\n');
  server = await startServe(['--workspace', workspace, '--port', '0'], { CHRONOSCOPE_HOME: home });
});

afterAll(async () => {
  for (const s of sockets) s.terminate();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  await rm(base, { recursive: true, force: true });
});

function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  expect(header).toBeDefined();
  return (header ?? '').split(';')[0] ?? '';
}

describe('chronoscope serve', () => {
  it('prints the URL with a random token as its first line, on 127.0.0.1', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('refuses requests without the token, or with a wrong one', async () => {
    expect((await httpGet(server.port, '/')).status).toBe(403);
    expect((await httpGet(server.port, '/?token=wrong')).status).toBe(403);
    expect((await httpGet(server.port, `/?token=${server.token}x`)).status).toBe(403);
  });

  it('lets the token in, sets an HttpOnly SameSite=Strict session cookie, and the cookie alone works after', async () => {
    const first = await httpGet(server.port, `/?token=${server.token}`);
    expect(first.status).not.toBe(403);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain(server.token);
    expect(first.headers['content-security-policy']).toContain("script-src 'self'");
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['referrer-policy']).toBe('no-referrer');

    const cookie = sessionCookie(first.headers['set-cookie']);
    const again = await httpGet(server.port, '/', { Cookie: cookie });
    expect(again.status).toBe(first.status);
    expect((await httpGet(server.port, '/', { Cookie: `${cookie}x` })).status).toBe(403);
  });

  it('refuses a foreign Origin and a Host that is not ours (DNS rebinding), even with the token', async () => {
    const path = `/?token=${server.token}`;
    expect((await httpGet(server.port, path, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await httpGet(server.port, path, { Origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await httpGet(server.port, path, { Host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await httpGet(server.port, path, { Host: `127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await httpGet(server.port, path, { Host: `localhost:${server.port}` })).status).not.toBe(403);
  });

  it('refuses sockets without token or cookie, without Origin, or from a foreign Origin', async () => {
    const ws = `ws://127.0.0.1:${server.port}/ws`;
    expect(await openSocket(ws, { Origin: server.origin })).toEqual({ refused: 403 });
    expect(await openSocket(`${ws}?token=${server.token}`, {})).toEqual({ refused: 403 });
    expect(await openSocket(`${ws}?token=${server.token}`, { Origin: 'http://evil.example' })).toEqual({ refused: 403 });
    expect(await openSocket(`${ws}?token=nope`, { Origin: server.origin })).toEqual({ refused: 403 });
  });

  it('carries the router over the socket: results by id, typed errors, and events', async () => {
    const first = await httpGet(server.port, `/?token=${server.token}`);
    const opened = await openSocket(`ws://127.0.0.1:${server.port}/ws`, { Origin: server.origin, Cookie: sessionCookie(first.headers['set-cookie']) });
    expect('socket' in opened).toBe(true);
    if (!('socket' in opened)) return;
    const socket = opened.socket;
    sockets.push(socket);
    const received = messages(socket);
    const result = (id: number) => (all: ServerMessage[]) => all.find((m) => m.type === 'result' && m.id === id);

    socket.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:info', payload: {} }));
    const info = await waitForMessage(socket, received, result(1));
    expect(info).toMatchObject({ type: 'result', id: 1, result: { ok: true, value: { host: 'browser' } } });

    socket.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'workspaces:list', payload: {} }));
    const list = await waitForMessage(socket, received, result(2));
    expect(JSON.stringify(list)).toContain(workspace);

    socket.send(JSON.stringify({ type: 'invoke', id: 3, channel: 'checkpoints:show', payload: { workspace, id: '--patch' } }));
    expect(await waitForMessage(socket, received, result(3))).toMatchObject({ result: { ok: false, error: { code: 'bad_input' } } });

    // Serving took the baseline: change something for this snapshot to record.
    await writeFile(join(workspace, 'over-the-socket.txt'), 'new\n');
    socket.send(JSON.stringify({ type: 'invoke', id: 4, channel: 'checkpoints:snapshot', payload: { workspace, reason: 'over the socket' } }));
    const snap = await waitForMessage(socket, received, result(4));
    expect(snap).toMatchObject({ result: { ok: true } });
    const event = await waitForMessage(socket, received, (all) =>
      all.find((m) => m.type === 'event' && m.channel === 'checkpoint:added'),
    );
    expect(JSON.stringify(event)).toContain('over the socket');
  });

  it('closes a socket that sends something outside the contract', async () => {
    const opened = await openSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { Origin: server.origin });
    if (!('socket' in opened)) throw new Error(`refused: ${JSON.stringify(opened)}`);
    const code = await new Promise<number>((resolve) => {
      opened.socket.once('close', (c) => resolve(c));
      opened.socket.send('{not json');
    });
    expect(code).toBe(1008);
  });

  it('stops cleanly on SIGINT with exit code 0', async () => {
    server.child.kill('SIGINT');
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect(server.lines.join('\n')).toContain('stopping');
  });
});

describe('chronoscope serve refusals', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [CLI_PATH, 'serve', ...args], { cwd: REPO_ROOT, env: { ...process.env, CHRONOSCOPE_HOME: home }, encoding: 'utf8' });

  it('refuses to bind anything but loopback, in one line, exit 1', () => {
    const r = run(['--host', '0.0.0.0', '--port', '0']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toContain('127.0.0.1 only');
  });

  it('refuses a workspace that is not a folder, in one line, exit 1', () => {
    const r = run(['--workspace', join(base, 'does-not-exist'), '--port', '0']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  });

  it('refuses / as a workspace, in one line, exit 1', () => {
    const r = run(['--workspace', '/', '--port', '0']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  });
});
