// Names that are legal on disk but look like options or Windows separators:
// the engine's own paths must survive a restore.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { picture, sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('odd names', () => {
  it.skipIf(process.platform === 'win32')('restores files named -dash and back\\slash, and the restore checkpoint records them', async () => {
    write(s.ws, '-dash', 'dash one\n');
    write(s.ws, 'back\\slash', 'slash one\n');
    write(s.ws, 'dir/-inner', 'inner one\n');
    const first = (await s.workspace.snapshot()).id as string;
    const pic = picture(s.ws);
    expect(Object.keys(pic)).toEqual(['-dash', 'back\\slash', 'dir/-inner']);
    const shown = (await s.workspace.show(first)).files.map((f) => f.path).sort();
    expect(shown).toEqual(['-dash', 'back\\slash', 'dir/-inner']);

    write(s.ws, '-dash', 'dash two\n');
    write(s.ws, 'back\\slash', 'slash two\n');
    write(s.ws, 'dir/-inner', 'inner two\n');
    const result = await s.workspace.restore(first);
    expect(result.modified.sort()).toEqual(['-dash', 'back\\slash', 'dir/-inner']);
    expect(picture(s.ws)).toEqual(pic);
    expect(result.checkpoint).not.toBeNull();
    const recorded = await s.workspace.show(result.checkpoint as string);
    expect(recorded.files.map((f) => f.path).sort()).toEqual(['-dash', 'back\\slash', 'dir/-inner']);
    // Nothing left unrecorded: the restore checkpoint holds the restored state.
    expect((await s.workspace.snapshot()).id).toBeNull();
  });

  it('still refuses a leading - in paths from outside', async () => {
    write(s.ws, '-dash', 'x\n');
    await expect(s.workspace.snapshot({ paths: ['-dash'] })).rejects.toMatchObject({ code: 'bad_input' });
    const first = (await s.workspace.snapshot()).id as string;
    await expect(s.workspace.restore(first, { paths: ['--patch'] })).rejects.toMatchObject({ code: 'bad_input' });
  });
});
