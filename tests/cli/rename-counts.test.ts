// Counts agree everywhere (issue 42): a folder of 6 files moved is 6 files
// renamed, +0 −0, in `list` (the stats stored at snapshot time), `show` and
// `diff` (the diff with rename detection); a rename with an edit counts its
// line changes; the real CLI over a real store.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from './run-cli.js';

interface Stats {
  files: number;
  insertions: number;
  deletions: number;
}
interface Row {
  id: string;
  stats: Stats;
}
interface Change {
  path: string;
  old_path?: string;
  status: string;
  insertions: number | null;
  deletions: number | null;
}

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

/** Six files of 20 lines each in src/old/. */
function sixFiles(): void {
  mkdirSync(join(box.workspace, 'src', 'old'), { recursive: true });
  for (let i = 1; i <= 6; i++) {
    const lines = Array.from({ length: 20 }, (_, n) => `export const line${n} = 'module ${i}, line ${n}';`).join('\n');
    writeFileSync(join(box.workspace, 'src', 'old', `module-${i}.ts`), `${lines}\n`);
  }
}

function totals(files: readonly Change[]): Stats {
  return {
    files: files.length,
    insertions: files.reduce((n, f) => n + (f.insertions ?? 0), 0),
    deletions: files.reduce((n, f) => n + (f.deletions ?? 0), 0),
  };
}

describe('rename counts', () => {
  it('a folder rename of 6 files is 6 files +0 −0 in list, show and diff', () => {
    sixFiles();
    const before = box.json<{ id: string }>(['snapshot', '-m', 'six files']).id;
    renameSync(join(box.workspace, 'src', 'old'), join(box.workspace, 'src', 'new'));
    const moved = box.json<{ id: string }>(['snapshot', '-m', 'move the folder']).id;

    const row = box.json<Row[]>(['list', '-n', '1'])[0]!;
    expect(row.id).toBe(moved);
    expect(row.stats).toEqual({ files: 6, insertions: 0, deletions: 0 });

    const shown = box.json<{ files: Change[] }>(['show', moved]).files;
    expect(shown.every((f) => f.status === 'renamed' && f.old_path?.startsWith('src/old/'))).toBe(true);
    expect(totals(shown)).toEqual(row.stats);
    const diffed = box.json<{ files: Change[] }>(['diff', before, moved]).files;
    expect(totals(diffed)).toEqual(row.stats);

    // The words say the same: "6 files changed, 0 insertions, 0 deletions" in show, "6 files +0 -0" in list.
    expect(box.cli(['show', moved]).stdout).toContain('6 files changed, 0 insertions, 0 deletions');
    expect(box.cli(['list', '-n', '1']).stdout).not.toMatch(/12 files/);
  });

  it('a rename with an edit counts its line changes, once', () => {
    sixFiles();
    box.json(['snapshot', '-m', 'six files']);
    const from = join(box.workspace, 'src', 'old', 'module-1.ts');
    const to = join(box.workspace, 'src', 'module-one.ts');
    renameSync(from, to);
    writeFileSync(to, `// moved and edited\n${Array.from({ length: 20 }, (_, n) => `export const line${n} = 'module 1, line ${n}';`).join('\n')}\n`);
    const moved = box.json<{ id: string }>(['snapshot', '-m', 'move and edit one']).id;
    const row = box.json<Row[]>(['list', '-n', '1'])[0]!;
    expect(row.stats).toEqual({ files: 1, insertions: 1, deletions: 0 });
    const shown = box.json<{ files: Change[] }>(['show', moved]).files;
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ path: 'src/module-one.ts', old_path: 'src/old/module-1.ts', status: 'renamed', insertions: 1, deletions: 0 });
  });
});
