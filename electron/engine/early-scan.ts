// A hook working alone starts its full scan's git listing (scan-listing.ts)
// before it loads the engine, so git stats the workspace while Node reads the
// engine's code and opens the store, instead of after: ~40 ms of a hook's
// ~240 ms on 10,000 files. It runs outside the workspace lock, so the scan
// (under the lock) uses it only if nothing it depends on changed meanwhile:
// the same workspace, git context and arguments, and the same private index,
// head file and exclude file, byte for byte (`workspaceStamp`). Anything else
// (another process took a checkpoint, the settings changed) and the scan
// starts its own listing, as it would have anyway. Files changing in the
// workspace meanwhile are the same race as files changing during any scan.
//
// Loaded by the hook's own bundle: only light modules here.
import { existsSync, realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { credentialExcludeArgs } from './excludes.js';
import { workspaceGitContext, type GitContext } from './git-env.js';
import { indexSignature } from './index-signature.js';
import { storeLayout, workspaceId, workspaceLayout, type WorkspaceLayout } from './paths.js';
import { startListing, type ScanListing } from './scan-listing.js';

export interface EarlyScan {
  root: string;
  git: GitContext;
  excludeArgs: string[];
  /** workspaceStamp just before the listing started. */
  stamp: string;
  listing: ScanListing;
}

/** What a listing's validity depends on in the store: the private index, the latest checkpoint, the exclude rules. */
export async function workspaceStamp(layout: WorkspaceLayout): Promise<string> {
  const [index, head, exclude] = await Promise.all([
    indexSignature(layout.indexFile),
    fs.readFile(layout.headFile, 'utf8').catch(() => ''),
    fs.readFile(layout.excludeFile, 'utf8').catch(() => ''),
  ]);
  return JSON.stringify([index, head, exclude]);
}

/** The innermost workspace the store knows (it has an index) that contains `real`. */
function knownWorkspace(home: string, real: string): { root: string; layout: WorkspaceLayout } | null {
  const store = storeLayout(home);
  for (let dir = real; ; dir = path.dirname(dir)) {
    const layout = workspaceLayout(store, workspaceId(dir));
    if (existsSync(layout.metaFile) && existsSync(layout.indexFile)) return { root: dir, layout };
    if (path.dirname(dir) === dir) return null;
  }
}

/** Whether the store's settings leave credentials out (the default; an unreadable file: the default too). */
async function includesCredentials(home: string): Promise<boolean> {
  try {
    const raw = JSON.parse(await fs.readFile(storeLayout(home).configFile, 'utf8')) as { include_credentials?: unknown };
    return raw.include_credentials === true;
  } catch {
    return false;
  }
}

/**
 * Starts the full scan's listing for the workspace holding `cwd`, when the
 * store already has its index. `files`: the paths a file tool is about to
 * change; when none is inside that workspace, no checkpoint follows, and
 * nothing is started.
 */
export async function startEarlyScan(home: string, cwd: string, files: readonly string[]): Promise<EarlyScan | null> {
  let real: string;
  try {
    real = realpathSync(cwd);
  } catch {
    return null;
  }
  const found = knownWorkspace(home, real);
  if (found === null) return null;
  const { root, layout } = found;
  const inside = (f: string) => f === root || f.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  if (files.length > 0 && !files.some((f) => inside(path.resolve(cwd, f)))) return null;
  const excludeArgs = credentialExcludeArgs({ include_credentials: await includesCredentials(home) });
  const stamp = await workspaceStamp(layout);
  const git = workspaceGitContext(storeLayout(home), layout, root);
  const listing = startListing(git, excludeArgs, []);
  // Awaited by the scan that takes it. One nobody takes (the snapshot was not needed after all) must not
  // fail the process; its git processes only read, and end with it.
  listing.modified.catch(() => undefined);
  listing.others.catch(() => undefined);
  return { root, git, excludeArgs, stamp, listing };
}

/** The listing offered to this process's next full scan (one, taken once). */
let offered: EarlyScan | null = null;

export function offerEarlyScan(early: EarlyScan): void {
  offered = early;
}

/** Takes the offered listing, if any: it is never used twice. */
export function takeEarlyScan(): EarlyScan | null {
  const early = offered;
  offered = null;
  return early;
}

/** Whether the scan about to run in `root` with this context and these arguments may use the early listing. */
export function earlyListingFits(early: EarlyScan, root: string, git: GitContext, excludeArgs: readonly string[], stampNow: string): boolean {
  return (
    early.root === root &&
    JSON.stringify(early.git) === JSON.stringify(git) &&
    JSON.stringify(early.excludeArgs) === JSON.stringify(excludeArgs) &&
    early.stamp === stampNow
  );
}
