// The sharing settings of one workspace, kept in the store (never in the
// workspace's .git): <home>/workspaces/<id>/share.json, owner-only. Also what
// `share disable` needs to put the workspace's hooks folder back exactly as
// enable found it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../fs/atomic-file.js';

export const SHARE_FILE = 'share.json';

const ShareSettingsSchema = z.object({
  v: z.literal(1),
  enabled: z.boolean(),
  /** The remote named at enable (`share push` without --remote; the hook follows the push's own remote). */
  remote: z.string(),
  /** The workspace's real path and the store it shares from (the hook names the store). */
  root: z.string(),
  home: z.string(),
  /** The hook file we wrote and, when one was there, where the person's own hook waits to be chained. */
  hookFile: z.string(),
  chainedFile: z.string().nullable(),
  /** A hooks folder that did not exist (core.hooksPath naming a new one): removed again on disable. */
  createdDir: z.string().nullable(),
  /** The bytes we wrote, so disable never removes a hook someone replaced since. */
  hookText: z.string(),
  enabledAt: z.string(),
});

export type ShareSettings = z.infer<typeof ShareSettingsSchema>;

export function shareFile(workspaceDir: string): string {
  return path.join(workspaceDir, SHARE_FILE);
}

export async function readShareSettings(workspaceDir: string): Promise<ShareSettings | null> {
  let text: string;
  try {
    text = await fs.readFile(shareFile(workspaceDir), 'utf8');
  } catch {
    return null;
  }
  const parsed = ShareSettingsSchema.safeParse(JSON.parse(text) as unknown);
  return parsed.success ? parsed.data : null;
}

export async function writeShareSettings(workspaceDir: string, settings: ShareSettings): Promise<void> {
  await writeJsonAtomic(shareFile(workspaceDir), settings, { mode: 0o600 });
}

export async function removeShareSettings(workspaceDir: string): Promise<void> {
  await fs.rm(shareFile(workspaceDir), { force: true });
}
