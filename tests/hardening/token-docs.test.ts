// The browser host's token lives as long as the server (electron/server/auth.ts:
// made once per start, accepted on every request). The README once called it
// "one-time"; what the docs promise must be what the code does.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { authorize, newSecrets } from '../../electron/server/auth.js';
import { REPO_ROOT } from '../paths.js';

const read = (rel: string): string => fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8').replace(/\s+/g, ' ');

describe("the browser host's token, as documented", () => {
  it('is not called one-time, and the docs say it lasts until the server stops', () => {
    for (const doc of ['README.md', 'docs/design.md']) {
      const text = read(doc);
      expect(/one-time token|\(one-time/i.test(text), `${doc} calls the token one-time`).toBe(false);
      expect(/not one-time/.test(text) && /until (that|the) server stops/.test(text), `${doc} says how long the token lives`).toBe(true);
    }
  });

  it('is accepted again and again while the server runs (what the docs now say)', () => {
    const ctx = { secrets: newSecrets(), port: 4317 };
    const req = { headers: { host: '127.0.0.1:4317' } } as unknown as IncomingMessage;
    const url = new URL(`http://127.0.0.1:4317/?token=${ctx.secrets.token}`);
    for (let i = 0; i < 3; i++) expect(authorize(req, url, ctx, false)).toEqual({ ok: true, via: 'token' });
    expect(newSecrets().token).not.toBe(ctx.secrets.token); // a new start, a new token
  });
});
