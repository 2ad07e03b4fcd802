// Restore titles never nest and read the same on every page size: the real CLI
// restores (to a checkpoint, to a restore, an undo, one file), then `list -n 3`,
// `list -n 4`, `list --all` and `show` word every checkpoint alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from './run-cli.js';

interface Row {
  id: string;
  trigger: string;
  title: string;
}

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

function edit(name: string, text: string): void {
  writeFileSync(join(box.workspace, name), text);
}

function snapshot(reason: string): string {
  return box.json<{ id: string }>(['snapshot', '-m', reason]).id;
}

function restore(args: string[]): void {
  const r = box.cli(['restore', ...args, '--yes']);
  expect(r.code, r.stderr).toBe(0);
}

describe('restore titles', () => {
  it('never nest, and read the same with list -n 3, -n 4, --all and show', () => {
    edit('package.json', '{ "v": 1 }\n');
    edit('login.ts', 'works\n');
    const working = snapshot('working login');
    edit('login.ts', 'broken\n');
    edit('package.json', '{ "v": 2 }\n');
    snapshot('broke it');
    restore([working]); // safety + "Restored the workspace to ‘working login’"
    const firstRestore = box.json<Row[]>(['list', '-n', '1'])[0]!;
    expect(firstRestore.trigger).toBe('restore');
    edit('login.ts', 'broken again\n');
    snapshot('broke it again');
    restore([firstRestore.id]); // a restore of a restore: named by what that one restored
    const safety = box.json<Row[]>(['list', '-n', '2'])[1]!;
    expect(safety.trigger).toBe('safety');
    restore([safety.id]); // undoing that restore
    edit('package.json', '{ "v": 3 }\n');
    restore([working, '--path', 'package.json']); // one file

    const all = box.json<Row[]>(['list', '--all']);
    const titles = all.filter((c) => c.trigger === 'restore' || c.trigger === 'safety').map((c) => c.title);
    for (const title of titles) expect(title, title).not.toMatch(/‘(Restored|Undid|Before)|“/);
    const words = all.map((c) => c.title);
    expect(words[0]).toMatch(/^Restored package\.json to ‘.+’ \(.+\)$/);
    expect(words).toContain('Undid the restore of ‘working login’');
    expect(words.filter((t) => /^Restored the workspace to ‘working login’ \(.+\)$/.test(t))).toHaveLength(2);
    expect(words.filter((t) => /^Before restoring to ‘working login’ \(.+\)$/.test(t))).toHaveLength(2);
    expect(words).toContain('Before undoing the restore of ‘working login’');

    // Every page size, and show, word each checkpoint as --all does.
    const byId = new Map(all.map((c) => [c.id, c.title]));
    for (const n of ['3', '4']) {
      for (const c of box.json<Row[]>(['list', '-n', n])) expect(c.title, `list -n ${n}`).toBe(byId.get(c.id));
    }
    for (const c of all.slice(0, 6)) expect(box.json<{ checkpoint: Row }>(['show', c.id]).checkpoint.title).toBe(c.title);
  });
});
