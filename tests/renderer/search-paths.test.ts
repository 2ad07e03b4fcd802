// The list's search box finds files (issue 26, item 5): what a person types —
// a file name, part of a path, a glob — read as globs, looked up by the
// engine's path history on real checkpoints, and kept by the list's matcher
// whatever the checkpoints' reasons say.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { matcher, NO_FILTER } from '../../renderer/src/lib/filter-match.js';
import { searchPathGlobs } from '../../renderer/src/lib/search-paths.js';
import { sandbox, write, type Sandbox } from '../engine/helpers.js';

describe('searchPathGlobs', () => {
  it('reads plain text as a part of a path, anywhere: a file, or a folder and what is in it', () => {
    expect(searchPathGlobs('target.txt')).toEqual(['**/*target.txt*', '**/*target.txt*/**']);
    expect(searchPathGlobs(' src/lib/ ')).toEqual(['**/*src/lib*', '**/*src/lib*/**']);
  });

  it('takes a glob as written; one without a folder matches a name in any folder', () => {
    expect(searchPathGlobs('src/*.ts')).toEqual(['src/*.ts']);
    expect(searchPathGlobs('*.css')).toEqual(['**/*.css']);
    expect(searchPathGlobs('**/*.md')).toEqual(['**/*.md']);
  });

  it('looks nothing up for text that cannot name a path usefully', () => {
    expect(searchPathGlobs('')).toEqual([]);
    expect(searchPathGlobs('a')).toEqual([]);
    expect(searchPathGlobs('//')).toEqual([]);
    expect(searchPathGlobs('two\nlines')).toEqual([]);
  });

  it("escapes git's glob escape in plain text", () => {
    expect(searchPathGlobs('a\\b')[0]).toBe('**/*a\\\\b*');
  });
});

describe('matcher with the search text as a path', () => {
  const cp = (id: string, reason: string): Checkpoint => ({
    id,
    time: '2026-01-01T00:00:00.000Z',
    time_ms: 0,
    reason,
    trigger: 'manual',
    stats: { files: 1, insertions: 1, deletions: 0 },
    skipped: [],
    pinned: false,
  });
  const list = [cp('a', 'fix the parser'), cp('b', 'auto: 1 file changed'), cp('c', 'rename things')];

  it('keeps the checkpoints that changed a matching path, and those whose reason matches', () => {
    const keep = matcher({ ...NO_FILTER, text: 'target.txt' }, null, new Set(['b']));
    expect(list.filter(keep).map((c) => c.id)).toEqual(['b']);
    const both = matcher({ ...NO_FILTER, text: 'parser' }, null, new Set(['c']));
    expect(list.filter(both).map((c) => c.id)).toEqual(['a', 'c']);
  });

  it('until the paths are known, the reason alone decides', () => {
    expect(list.filter(matcher({ ...NO_FILTER, text: 'target.txt' }, null, null))).toEqual([]);
    expect(list.filter(matcher({ ...NO_FILTER, text: 'parser' }, null)).map((c) => c.id)).toEqual(['a']);
  });

  it('other filters still apply to a path hit', () => {
    const keep = matcher({ ...NO_FILTER, text: 'target.txt', pinned: true }, null, new Set(['b']));
    expect(list.filter(keep)).toEqual([]);
  });
});

describe('the globs against the engine’s path history of real checkpoints', () => {
  let s: Sandbox;
  const ids: Record<string, string> = {};
  beforeEach(async () => {
    s = await sandbox();
    write(s.ws, 'README.md', 'hello\n');
    ids['base'] = (await s.workspace.snapshot({ reason: 'start' })).id as string;
    write(s.ws, 'src/deep/target.txt', 'lost and found\n');
    ids['target'] = (await s.workspace.snapshot({ reason: 'auto: 1 file changed' })).id as string;
    write(s.ws, 'src/app.ts', 'export {};\n');
    ids['app'] = (await s.workspace.snapshot({ reason: 'wip' })).id as string;
    write(s.ws, 'README.md', 'hello again\n');
    ids['readme'] = (await s.workspace.snapshot({ reason: 'docs' })).id as string;
  });
  afterEach(() => s.cleanup());

  /** What the renderer does: every glob's history, joined. */
  async function found(text: string): Promise<string[]> {
    const hits = new Set<string>();
    for (const glob of searchPathGlobs(text)) for (const e of (await s.workspace.pathHistory(glob)).entries) hits.add(e.id);
    const names = Object.entries(ids).filter(([, id]) => hits.has(id)).map(([name]) => name);
    return names.sort();
  }

  it('a file name finds the checkpoint that changed it, wherever the file is', async () => {
    expect(await found('target.txt')).toEqual(['target']);
    expect(await found('target')).toEqual(['target']);
  });

  it('part of a path, and a folder, find it too', async () => {
    expect(await found('deep/targ')).toEqual(['target']);
    expect(await found('src/deep')).toEqual(['target']);
    expect(await found('src/')).toEqual(['app', 'target']);
  });

  it('a glob finds what it matches', async () => {
    expect(await found('src/*.ts')).toEqual(['app']);
    expect(await found('*.md')).toEqual(['base', 'readme']);
  });
});
