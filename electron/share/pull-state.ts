// What the last pull of a workspace used, kept in the store beside the
// workspace's own files (<home>/workspaces/<id>/share-pull.json, owner-only):
// the remote a file's contents are fetched from on demand (lazy-blobs.ts),
// and whether it can filter.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../fs/atomic-file.js';

const PullState = z.object({
  v: z.literal(1),
  remote: z.string(),
  url: z.string(),
  filtered: z.boolean(),
  pulled_at: z.string(),
});
export type PullState = z.infer<typeof PullState>;

export function pullStateFile(workspaceDir: string): string {
  return path.join(workspaceDir, 'share-pull.json');
}

export async function readPullState(workspaceDir: string): Promise<PullState | undefined> {
  const text = await fs.readFile(pullStateFile(workspaceDir), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = PullState.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writePullState(workspaceDir: string, state: PullState): Promise<void> {
  await writeJsonAtomic(pullStateFile(workspaceDir), state, { mode: 0o600 });
}
