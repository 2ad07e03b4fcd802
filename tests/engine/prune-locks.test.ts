// Compaction takes the store lock and every workspace lock: prunes in two
// workspaces at once must not wait on each other in a cycle.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('prune --compact in two workspaces at once', () => {
  it('both succeed (one lock order: the store before workspaces)', async () => {
    const other = path.join(s.base, 'ws2');
    fs.mkdirSync(other);
    const second = await s.store.workspace(other);
    write(s.ws, 'a.txt', 'a\n');
    write(other, 'b.txt', 'b\n');
    await s.workspace.snapshot();
    await second.snapshot();
    const results = await Promise.all([s.workspace.prune({ compact: true }), second.prune({ compact: true }), s.workspace.prune({ compact: true })]);
    for (const r of results) expect(r.gc_ran).toBe(true);
    expect(await s.workspace.list()).toHaveLength(1);
    expect(await second.list()).toHaveLength(1);
  });
});
