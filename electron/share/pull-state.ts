// What the last pull of a workspace used, kept in the store beside the
// workspace's own files (<home>/workspaces/<id>/share-pull.json, owner-only):
// the remote a file's contents are fetched from on demand (lazy-blobs.ts),
// and whether it can filter.
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeJsonAtomic } from '../fs/atomic-file.js';

// Checked by hand, not with zod: listings and diffs read it (engine/foreign/lanes.ts), and the
// agents' hook bundle, which shares that path, must not load zod (tests/agents/hook-lean.test.ts).
export interface PullState {
  v: 1;
  remote: string;
  url: string;
  filtered: boolean;
  pulled_at: string;
  /** Every remote URL this workspace has pulled from (absent in older files: `url` alone). */
  urls?: string[];
}

function isPullState(v: unknown): v is PullState {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return o.v === 1 && typeof o.remote === 'string' && typeof o.url === 'string' && typeof o.filtered === 'boolean' && typeof o.pulled_at === 'string';
}

export function pullStateFile(workspaceDir: string): string {
  return path.join(workspaceDir, 'share-pull.json');
}

export async function readPullState(workspaceDir: string): Promise<PullState | undefined> {
  const text = await fs.readFile(pullStateFile(workspaceDir), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isPullState(parsed)) return undefined;
    const urls = Array.isArray(parsed.urls) && parsed.urls.every((u) => typeof u === 'string') ? parsed.urls : [parsed.url];
    return { v: 1, remote: parsed.remote, url: parsed.url, filtered: parsed.filtered, pulled_at: parsed.pulled_at, urls };
  } catch {
    return undefined;
  }
}

export async function writePullState(workspaceDir: string, state: PullState): Promise<void> {
  await writeJsonAtomic(pullStateFile(workspaceDir), state, { mode: 0o600 });
}
