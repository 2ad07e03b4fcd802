// meta.json of a workspace: who it is, when it was used, what is pinned, which
// nested repositories were found. Always written atomically (temp + rename).
import type { WorkspaceMeta } from '../../../shared/model.js';
import { readJson, writeFileAtomic } from '../../fs/atomic-file.js';

export interface MetaFile extends WorkspaceMeta {
  pinned: string[];
  nested_repos: string[];
}

export async function readMeta(file: string): Promise<MetaFile | undefined> {
  let raw: unknown;
  try {
    raw = await readJson(file);
  } catch {
    return undefined; // never half-written (atomic), so only a foreign edit gets here
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const o = raw as Record<string, unknown>;
  if (typeof o['id'] !== 'string' || typeof o['path'] !== 'string') return undefined;
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    id: o['id'],
    path: o['path'],
    created: typeof o['created'] === 'string' ? o['created'] : new Date(0).toISOString(),
    last_touched: typeof o['last_touched'] === 'string' ? o['last_touched'] : new Date(0).toISOString(),
    pinned: strings(o['pinned']),
    nested_repos: strings(o['nested_repos']),
  };
}

export async function writeMeta(file: string, meta: MetaFile): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o600 });
}

export function publicMeta(meta: MetaFile): WorkspaceMeta {
  return { id: meta.id, path: meta.path, created: meta.created, last_touched: meta.last_touched };
}
