// Runs the real `chronoscope serve` process for the server tests and speaks
// HTTP and WebSocket to it the way a browser (or an attacker's page) would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import type { ServerMessage } from '../../shared/ipc.js';
import { CLI_PATH, REPO_ROOT } from '../paths.js';

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  token: string;
  origin: string;
  /** Lines printed after the URL. */
  lines: string[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    let first = true;
    reader.on('line', (line) => {
      if (!first) {
        lines.push(line);
        return;
      }
      first = false;
      const url = new URL(line);
      const port = Number(url.port);
      resolve({ child, url: line, port, token: url.searchParams.get('token') ?? '', origin: `http://127.0.0.1:${port}`, lines, stderr: () => stderr, exited });
    });
    void exited.then(({ code }) => {
      if (first) reject(new Error(`serve exited with ${code} before printing its URL: ${stderr}`));
    });
  });
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function httpGet(port: number, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket; resolves with it when open, or with the HTTP status of the refusal. */
export function openSocket(url: string, headers: Record<string, string>): Promise<{ socket: WebSocket } | { refused: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      res.resume();
      socket.terminate();
    });
    socket.once('error', (err) => reject(err));
  });
}

/** Collects every ServerMessage the socket receives. */
export function messages(socket: WebSocket): ServerMessage[] {
  const received: ServerMessage[] = [];
  socket.on('message', (data) => received.push(JSON.parse(data.toString()) as ServerMessage));
  return received;
}

/** Waits until `find` returns something from the messages received so far (checked on each new message). */
export function waitForMessage<T>(socket: WebSocket, received: ServerMessage[], find: (all: ServerMessage[]) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = find(received);
      if (found !== undefined) {
        socket.off('message', onMessage);
        socket.off('close', onClose);
        resolve(found);
      }
    };
    const onMessage = () => setImmediate(check);
    const onClose = () => reject(new Error('socket closed while waiting for a message'));
    socket.on('message', onMessage);
    socket.on('close', onClose);
    check();
  });
}
