// The pieces of the browser host that decide what is served and to whom,
// checked directly: path resolution against traversal and symlinks, content
// types and caching, secret comparison, cookie parsing, the CSP.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControl, contentType, resolveStatic } from '../../electron/server/static-files.js';
import { parseCookies, secretEquals, sessionCookieHeader } from '../../electron/server/auth.js';
import { contentSecurityPolicy } from '../../electron/server/csp.js';
import { checkBindHost } from '../../electron/server/browser-host.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'chronoscope-static-'));
  root = join(base, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(root, 'assets', 'app-1234.js'), 'console.log(1)');
  await writeFile(join(base, 'secret.txt'), 'outside the root');
  await symlink(join(base, 'secret.txt'), join(root, 'link-out.txt'));
  await symlink(base, join(root, 'dir-out'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveStatic', () => {
  it('serves index.html for / and files under the root', async () => {
    const index = await resolveStatic(root, '/');
    expect(index).toMatchObject({ kind: 'file', relative: 'index.html' });
    expect(await resolveStatic(root, '/assets/app-1234.js')).toMatchObject({ kind: 'file', relative: 'assets/app-1234.js' });
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2E%2E/%2E%2E/secret.txt',
    '/link-out.txt',
    '/dir-out/secret.txt',
    '/index.html%00.js',
    '/..%5csecret.txt',
    '/%E0%A4%A',
  ])('never serves %s from outside the root', async (path) => {
    const resolved = await resolveStatic(root, path);
    expect(resolved.kind).not.toBe('file');
  });

  it('says missing for files that do not exist and for folders', async () => {
    expect((await resolveStatic(root, '/nope.js')).kind).toBe('missing');
    expect((await resolveStatic(root, '/assets')).kind).toBe('missing');
  });
});

describe('headers', () => {
  it('names the content types Monaco and Vite output need', () => {
    expect(contentType('a.js')).toBe('text/javascript; charset=utf-8');
    expect(contentType('a.css')).toBe('text/css; charset=utf-8');
    expect(contentType('codicon.ttf')).toBe('font/ttf');
    expect(contentType('x.wasm')).toBe('application/wasm');
    expect(contentType('index.html')).toBe('text/html; charset=utf-8');
    expect(contentType('unknown.bin')).toBe('application/octet-stream');
  });

  it('caches hashed assets for good and revalidates the rest', () => {
    expect(cacheControl('assets/app-1234.js')).toContain('immutable');
    expect(cacheControl('index.html')).toBe('no-cache');
  });

  it('has a CSP that allows only our own scripts and no plugins or framing', () => {
    const csp = contentSecurityPolicy({ connect: ['ws://127.0.0.1:5000'] });
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("connect-src 'self' ws://127.0.0.1:5000");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("worker-src 'self' blob:");
  });
});

describe('auth helpers', () => {
  it('compares secrets exactly', () => {
    expect(secretEquals('abc', 'abc')).toBe(true);
    expect(secretEquals('abc', 'abd')).toBe(false);
    expect(secretEquals('abc', 'abcd')).toBe(false);
    expect(secretEquals('', 'abc')).toBe(false);
  });

  it('parses cookies and sets the session cookie HttpOnly and SameSite=Strict', () => {
    const cookies = parseCookies('a=1; chronoscope_session_80=xyz;b=2=3');
    expect(cookies.get('chronoscope_session_80')).toBe('xyz');
    expect(cookies.get('b')).toBe('2=3');
    const header = sessionCookieHeader(80, 'xyz');
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/');
  });

  it('binds loopback only', () => {
    expect(checkBindHost('127.0.0.1')).toBe('127.0.0.1');
    expect(checkBindHost('localhost')).toBe('127.0.0.1');
    expect(() => checkBindHost('0.0.0.0')).toThrow(/127\.0\.0\.1 only/);
    expect(() => checkBindHost('192.168.1.5')).toThrow(/refusing/);
  });
});
