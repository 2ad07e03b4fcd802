// Reading a workspace's checkpoint refs without a git process, loose or
// packed. Snapshots write each ref as a loose file (objects/loose-write.ts);
// upkeep packs them into `packed-refs` with git's own `pack-refs`
// (refs/pack-refs.ts), as `git gc` would. So every reader here looks in both
// places, as git does: a loose ref wins over a packed one of the same name.
//
// packed-refs is parsed once per version of the file (its inode, size and
// mtime) and kept, grouped by workspace: 100,000 refs are ~9 MB and ~100 ms
// to parse, and a long-lived process (the app, `serve`) reads them at every
// listing.
import type { BigIntStats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { WsContext } from '../layout/context.js';

interface PackedWorkspace {
  /** Ref names under the prefix, newest first. */
  names: string[];
  /** Ref name → commit id. */
  ids: Map<string, string>;
}

const packedCache = new Map<string, { key: string; byPrefix: Map<string, PackedWorkspace> }>();
const CP_PREFIX = 'refs/chronoscope/';
const ID_LENGTH = 40;

function statKey(stat: BigIntStats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

export function packedRefsFile(gitDir: string): string {
  return path.join(gitDir, 'packed-refs');
}

/** The folder of a workspace's loose checkpoint refs. */
export function looseRefsDir(ctx: WsContext): string {
  return path.join(ctx.store.gitDir, ...ctx.refPrefix.split('/').filter(Boolean));
}

/** Every workspace's packed checkpoint refs, from the cache while packed-refs is unchanged. */
async function packedRefs(gitDir: string): Promise<Map<string, PackedWorkspace>> {
  const file = packedRefsFile(gitDir);
  const stat = await fs.stat(file, { bigint: true }).catch(() => null);
  if (!stat) return new Map();
  const key = statKey(stat);
  const cached = packedCache.get(gitDir);
  if (cached?.key === key) return cached.byPrefix;
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const byPrefix = parsePackedRefs(text);
  if (packedCache.size > 16) packedCache.clear();
  packedCache.set(gitDir, { key, byPrefix });
  return byPrefix;
}

/** `<id> <refname>` lines of our checkpoint refs (peeled `^` lines and the header are not ours). */
function parsePackedRefs(text: string): Map<string, PackedWorkspace> {
  const byPrefix = new Map<string, PackedWorkspace>();
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    // "<40 hex> refs/chronoscope/<wsid>/cp/<name>"
    if (end - at > ID_LENGTH + 1 + CP_PREFIX.length && text.startsWith(CP_PREFIX, at + ID_LENGTH + 1) && text.charCodeAt(at + ID_LENGTH) === 32) {
      const refname = text.slice(at + ID_LENGTH + 1, end);
      const cp = refname.indexOf('/cp/', CP_PREFIX.length);
      if (cp > 0 && refname.indexOf('/', cp + 4) < 0) {
        const prefix = refname.slice(0, cp + 4);
        let ws = byPrefix.get(prefix);
        if (!ws) byPrefix.set(prefix, (ws = { names: [], ids: new Map() }));
        ws.names.push(refname);
        ws.ids.set(refname, text.slice(at, at + ID_LENGTH));
      }
    }
    at = end + 1;
  }
  // git writes packed-refs sorted: newest first is the reverse (sorted only if it was not: 100,000 names sort in ~100 ms).
  for (const ws of byPrefix.values()) {
    let sorted = true;
    for (let i = 1; i < ws.names.length && sorted; i++) sorted = ws.names[i - 1]! < ws.names[i]!;
    if (sorted) ws.names.reverse();
    else ws.names.sort(descending);
  }
  return byPrefix;
}

function descending(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/** This workspace's packed checkpoint refs. */
async function packedOf(ctx: WsContext): Promise<PackedWorkspace> {
  return (await packedRefs(ctx.store.gitDir)).get(ctx.refPrefix) ?? { names: [], ids: new Map() };
}

/** Names of the workspace's loose checkpoint ref files (one readdir; `.lock` files are not refs). */
export async function looseRefNames(ctx: WsContext): Promise<string[]> {
  return (await fs.readdir(looseRefsDir(ctx)).catch(() => [] as string[])).filter((n) => !n.endsWith('.lock') && !n.startsWith('.'));
}

/** The workspace's checkpoint ref names, loose and packed, newest first. */
export async function checkpointRefNames(ctx: WsContext): Promise<string[]> {
  const [loose, packed] = await Promise.all([looseRefNames(ctx), packedOf(ctx)]);
  const looseNames = loose.map((n) => `${ctx.refPrefix}${n}`).sort(descending);
  if (looseNames.length === 0) return packed.names.slice();
  if (packed.names.length === 0) return looseNames;
  // Both sorted newest first: merged, a name in both once.
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < looseNames.length || j < packed.names.length) {
    const a = looseNames[i];
    const b = packed.names[j];
    if (b === undefined || (a !== undefined && a > b)) {
      out.push(a!);
      i++;
    } else if (a === undefined || b > a) {
      out.push(b);
      j++;
    } else {
      out.push(a);
      i++;
      j++;
    }
  }
  return out;
}

/** The commit a checkpoint ref holds: its loose file, else packed-refs; undefined when neither has it. */
export async function checkpointRefTarget(ctx: WsContext, refname: string): Promise<string | undefined> {
  const loose = await fs.readFile(path.join(ctx.store.gitDir, ...refname.split('/')), 'utf8').catch(() => null);
  if (loose !== null) {
    const id = loose.trim();
    return /^[0-9a-f]{40}$/.test(id) ? id : undefined;
  }
  return (await packedOf(ctx)).ids.get(refname);
}

/** The newest checkpoint ref name, loose or packed (a linear pass: no sort). */
export async function newestCheckpointRef(ctx: WsContext): Promise<string | undefined> {
  const [loose, packed] = await Promise.all([looseRefNames(ctx), packedOf(ctx)]);
  let newest = packed.names[0] ?? '';
  for (const name of loose) if (`${ctx.refPrefix}${name}` > newest) newest = `${ctx.refPrefix}${name}`;
  return newest === '' ? undefined : newest;
}

/** How many checkpoint refs the workspace has, loose and packed (no sort, no ref file read). */
export async function countCheckpointRefs(ctx: WsContext): Promise<number> {
  const [loose, packed] = await Promise.all([looseRefNames(ctx), packedOf(ctx)]);
  let count = packed.names.length;
  for (const name of loose) if (!packed.ids.has(`${ctx.refPrefix}${name}`)) count += 1;
  return count;
}
