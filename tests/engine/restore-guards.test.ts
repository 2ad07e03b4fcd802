// A restore never loses work it did not see: edits made while it writes,
// and files in the way, are left alone and reported.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../electron/engine/restore.js';
import type { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('restore guards', () => {
  it('a file edited (or a removal target rewritten) after the safety checkpoint is left as is and reported', async () => {
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'b.txt', 'b1\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'b.txt', 'b2\n');
    write(s.ws, 'gone.txt', 'new since\n');
    await s.workspace.snapshot();

    const ctx = (s.workspace as WorkspaceImpl).ctx;
    const result = await restoreCheckpoint(ctx, first, {}, {
      afterSafety: async () => {
        // An agent writes while the restore is under way.
        write(s.ws, 'a.txt', 'agent wrote this\n');
        write(s.ws, 'gone.txt', 'agent rewrote this\n');
      },
    });
    expect(result.conflicts).toEqual(['a.txt', 'gone.txt']);
    expect(result.modified).toEqual(['b.txt']);
    expect(fs.readFileSync(path.join(s.ws, 'a.txt'), 'utf8')).toBe('agent wrote this\n');
    expect(fs.readFileSync(path.join(s.ws, 'gone.txt'), 'utf8')).toBe('agent rewrote this\n');
    expect(fs.readFileSync(path.join(s.ws, 'b.txt'), 'utf8')).toBe('b1\n');
  });
});
