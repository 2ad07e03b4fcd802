// A store folder another user made is refused, and the message says so: whose
// it is and what to do, not "internal error".
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { otherUser } from '../support/other-user.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a store folder that belongs to another user', () => {
  it.skipIf(otherUser.skip !== null)('is refused as "not yours", naming the owner and what to do; nothing is written in it', () => {
    const base = otherUser.dir('chronoscope-notyours-');
    made.push(base);
    // The store folder: pre-created by root (another user than the one running the CLI), open to all.
    const store = fs.mkdtempSync(path.join(base, 'store-'));
    fs.chmodSync(store, 0o777);
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
    fs.chownSync(ws, otherUser.uid, otherUser.gid);
    fs.chownSync(path.join(ws, 'a.txt'), otherUser.uid, otherUser.gid);

    const r = otherUser.cli(['snapshot', '-w', ws], { cwd: ws, home: store, userHome: base });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).toContain(`the store folder ${store} is not yours: it belongs to user root (uid 0)`);
    expect(r.stderr).toContain('CHRONOSCOPE_HOME');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.readdirSync(store)).toEqual([]);
    expect(fs.statSync(store).mode & 0o777).toBe(0o777); // not chmodded either
  });
});
