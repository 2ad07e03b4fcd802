// A restore changes content, not the person's permission choices; and it
// cleans up after a restore that was killed halfway.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const modeOf = (rel: string): number => fs.statSync(path.join(s.ws, rel)).mode & 0o777;

describe.skipIf(process.platform === 'win32')('restore and permissions', () => {
  it('keeps a 0600 file 0600 when only its content changes, and applies the exec bit on top of existing bits', async () => {
    write(s.ws, 'private.txt', 'one\n', 0o600);
    write(s.ws, 'tool.sh', '#!/bin/sh\n', 0o750);
    write(s.ws, 'script.sh', '#!/bin/sh\n', 0o640);
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'private.txt', 'two\n');
    fs.chmodSync(path.join(s.ws, 'private.txt'), 0o600);
    fs.chmodSync(path.join(s.ws, 'tool.sh'), 0o640); // lost its exec bit
    write(s.ws, 'script.sh', '#!/bin/sh\necho\n');
    fs.chmodSync(path.join(s.ws, 'script.sh'), 0o750); // gained one
    await s.workspace.snapshot();

    await s.workspace.restore(first);
    expect(fs.readFileSync(path.join(s.ws, 'private.txt'), 'utf8')).toBe('one\n');
    expect(modeOf('private.txt')).toBe(0o600);
    expect(modeOf('tool.sh')).toBe(0o750);
    expect(modeOf('script.sh')).toBe(0o640);
  });

  it('a deleted 0600 file comes back 0600, a 0700 tool 0700: modes git cannot hold are recorded', async () => {
    write(s.ws, 'secret.txt', 'mine only\n', 0o600);
    write(s.ws, 'bin/tool', '#!/bin/sh\n', 0o700);
    write(s.ws, 'shared.txt', 'group may read\n', 0o640);
    write(s.ws, 'plain.txt', 'anyone\n', 0o644);
    const first = (await s.workspace.snapshot()).id as string;
    for (const f of ['secret.txt', 'bin/tool', 'shared.txt', 'plain.txt']) fs.rmSync(path.join(s.ws, f));
    await s.workspace.snapshot();
    await s.workspace.restore(first);
    expect(modeOf('secret.txt')).toBe(0o600);
    expect(modeOf('bin/tool')).toBe(0o700);
    expect(modeOf('shared.txt')).toBe(0o640);
    expect(modeOf('plain.txt')).toBe(0o644);
    // Carried forward: a later checkpoint that did not touch them still knows.
    write(s.ws, 'other.txt', 'x\n');
    const later = (await s.workspace.snapshot()).id as string;
    for (const f of ['secret.txt', 'bin/tool']) fs.rmSync(path.join(s.ws, f));
    await s.workspace.restore(later);
    expect(modeOf('secret.txt')).toBe(0o600);
    expect(modeOf('bin/tool')).toBe(0o700);
  });

  it('sweeps temporary files a killed restore left behind', async () => {
    write(s.ws, 'sub/a.txt', 'one\n');
    write(s.ws, 'sub/.chronoscope-notes.txt', 'a recorded file that only looks like ours\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'sub/a.txt', 'two\n');
    await s.workspace.snapshot();
    write(s.ws, 'sub/.chronoscope-0123456789ab.tmp', 'half written\n');
    await s.workspace.restore(first);
    expect(fs.readdirSync(path.join(s.ws, 'sub')).sort()).toEqual(['.chronoscope-notes.txt', 'a.txt']);
  });
});
