// "Reported as taken" means durable, with the fsyncs batched: before a
// checkpoint's ref is linked into place, every object file the snapshot wrote
// (loose objects, or a pack and its index) was fsynced, and so was every
// object folder that received a name (each once). Checked on the real engine by watching its file-system calls, for a
// path-limited snapshot, a full scan built in Node and one git hashes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

type Event = { op: 'sync' | 'rename' | 'link'; file: string };

/** Records open→sync (by path), rename and link while `fn` runs. */
async function watchFs(fn: () => Promise<unknown>): Promise<Event[]> {
  const events: Event[] = [];
  const paths = new Map<number, string>();
  const realOpen = fs.open;
  const realRename = fs.rename;
  const realLink = fs.link;
  const probe = await realOpen(__filename, 'r');
  const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const realSync = proto.sync;
  const patched = fs as unknown as Record<string, unknown>;
  patched['open'] = async (...args: Parameters<typeof fs.open>) => {
    const handle = await realOpen(...args);
    paths.set(handle.fd, String(args[0]));
    return handle;
  };
  patched['rename'] = async (from: string, to: string) => {
    await realRename(from, to);
    events.push({ op: 'rename', file: String(to) });
  };
  patched['link'] = async (from: string, to: string) => {
    await realLink(from, to);
    events.push({ op: 'link', file: String(to) });
  };
  proto.sync = async function (this: { fd: number }) {
    await realSync.call(this);
    events.push({ op: 'sync', file: paths.get(this.fd) ?? '?' });
  };
  try {
    await fn();
  } finally {
    patched['open'] = realOpen;
    patched['rename'] = realRename;
    patched['link'] = realLink;
    proto.sync = realSync;
  }
  return events;
}

/** Asserts the durable order for the one checkpoint ref linked in `events`. */
function expectDurableBeforeRef(events: Event[], objectsDir: string): void {
  const refAt = events.findIndex((e) => e.op === 'link' && e.file.includes(`${path.sep}refs${path.sep}chronoscope${path.sep}`));
  expect(refAt).toBeGreaterThan(0);
  const before = events.slice(0, refAt);
  const objects = before.filter((e) => e.op === 'rename' && e.file.startsWith(objectsDir));
  expect(objects.length).toBeGreaterThan(0); // at least the commit
  const synced = before.filter((e) => e.op === 'sync').map((e) => e.file);
  for (const obj of objects) {
    const dir = path.dirname(obj.file);
    const renamedAt = events.indexOf(obj);
    const after = events.slice(renamedAt, refAt);
    if (path.basename(dir) === 'pack') {
      // A pack and its index: fsynced under their temporary names before the rename.
      const tmp = path.basename(obj.file).endsWith('.pack') ? 'tmp_pack_' : 'tmp_idx_';
      expect(events.slice(0, renamedAt).some((e) => e.op === 'sync' && path.dirname(e.file) === dir && path.basename(e.file).startsWith(tmp)), obj.file).toBe(true);
    } else {
      // A loose object's own file (opened under a temporary name in the same folder), fsynced after the rename, before the ref.
      expect(after.some((e) => e.op === 'sync' && path.dirname(e.file) === dir && path.basename(e.file).startsWith('tmp_obj_'))).toBe(true);
    }
    // And its folder, after the rename, before the ref.
    expect(after.some((e) => e.op === 'sync' && e.file === dir)).toBe(true);
  }
  // Each folder once.
  const dirSyncs = synced.filter((f) => path.dirname(f) === objectsDir || f === objectsDir);
  expect(new Set(dirSyncs).size).toBe(dirSyncs.length);
}

describe('durable, batched', () => {
  it('every object and its folder are fsynced before the ref, each folder once', async () => {
    const objectsDir = path.join(s.storeHome, 'git', 'objects');
    for (let i = 0; i < 12; i++) write(s.ws, `d${i % 4}/f${i}.txt`, `file ${i}\n`);
    await s.workspace.snapshot();
    // Path-limited (Node), a full scan built in Node, and one with a new file git hashes.
    write(s.ws, 'd1/f1.txt', 'edited\n');
    write(s.ws, 'd2/f2.txt', 'edited\n');
    expectDurableBeforeRef(await watchFs(() => s.workspace.snapshot({ paths: ['d1/f1.txt', 'd2/f2.txt'] })), objectsDir);
    write(s.ws, 'd3/f3.txt', 'edited again\n');
    expectDurableBeforeRef(await watchFs(() => s.workspace.snapshot()), objectsDir);
    write(s.ws, 'new/one.txt', 'new\n');
    expectDurableBeforeRef(await watchFs(() => s.workspace.snapshot({ paths: ['new/one.txt'] })), objectsDir);
  });
});
