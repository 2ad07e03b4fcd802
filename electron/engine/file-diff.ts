// Both sides of one file for the side-by-side viewer. A side is read from a
// checkpoint's tree (ls-tree + the blob) or from the disk ('workspace': the
// file as it is now, unless ignored or reached through a symlinked folder).
import fs from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_PREVIEW_MAX_BYTES, VIEWER_MAX_BYTES, type FileSide } from '../../shared/model.js';
import type { GitContext } from './git/git-env.js';
import { ChronoscopeError } from '../../shared/errors.js';
import { readObjectsLimited } from './objects/cat-file.js';
import { recentSides, type PathSides } from './diff.js';
import { git, gitStdin, splitNul } from './git/git-runner.js';
import { readBounded, UnreadableFile } from '../fs/bounded-read.js';

const BINARY_PROBE_BYTES = 8000;

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image type of a path by its extension, or null (SVG is text: the viewer shows it from its text). */
export function imageMime(rel: string): string | null {
  const dot = rel.lastIndexOf('.');
  return dot < 0 ? null : (IMAGE_TYPES[rel.slice(dot + 1).toLowerCase()] ?? null);
}

/** Files over `limit` are reported as too_large, not sent to the viewer (VIEWER_MAX_BYTES, or the larger limit on request). */
function sideFromBuffer(data: Buffer, mode: string, size: number, rel: string, limit = VIEWER_MAX_BYTES): FileSide {
  if (size > limit) return { kind: 'too_large', size, mode };
  if (data.subarray(0, BINARY_PROBE_BYTES).includes(0) || imageMime(rel)) {
    const mime = imageMime(rel);
    const side: FileSide = { kind: 'binary', size, mode };
    if (mime && size <= IMAGE_PREVIEW_MAX_BYTES) side.image = { mime, base64: data.toString('base64') };
    return side;
  }
  return { kind: 'text', size, mode, text: data.toString('utf8') };
}

export const MISSING: FileSide = { kind: 'missing', size: null, mode: null };

export async function sideFromTree(gitCtx: GitContext, tree: string, rel: string, limit = VIEWER_MAX_BYTES): Promise<FileSide> {
  const out = await git(gitCtx, ['ls-tree', '-z', '-l', '--full-tree', tree, '--', rel]);
  for (const record of splitNul(out)) {
    const tab = record.indexOf('\t');
    if (tab < 0 || record.slice(tab + 1) !== rel) continue;
    const [mode = '', type = '', oid = '', sizeText = ''] = record.slice(0, tab).split(/ +/);
    if (type !== 'blob') return MISSING;
    const size = Number(sizeText);
    if (mode === '120000') {
      const { stdout } = await gitStdin(gitCtx, ['cat-file', 'blob', oid]);
      return { kind: 'symlink', size, mode, text: stdout.toString('utf8') };
    }
    if (size > limit) return { kind: 'too_large', size, mode };
    const { stdout } = await gitStdin(gitCtx, ['cat-file', 'blob', oid]);
    return sideFromBuffer(stdout, mode, size, rel, limit);
  }
  return MISSING;
}

/**
 * Both sides of one file in two trees: the path's modes and blob ids from the
 * diff just listed (diff.ts keeps the last few) or one diff-tree limited to
 * the path; contents read loose in Node, else one cat-file --batch.
 */
export async function sidesFromTrees(gitCtx: GitContext, from: string, to: string, rel: string, limit = VIEWER_MAX_BYTES): Promise<[FileSide, FileSide]> {
  const same = async (): Promise<[FileSide, FileSide]> => {
    const side = await sideFromTree(gitCtx, from, rel, limit);
    return [side, side];
  };
  if (from === to) return same();
  const known = recentSides(gitCtx.gitDir, from, to, rel);
  let entry: PathSides | undefined = known ?? undefined;
  if (known === undefined) {
    const tokens = splitNul(await git(gitCtx, ['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to, '--', rel]));
    for (let i = 0; i + 1 < tokens.length; i += 2) {
      if (tokens[i + 1] !== rel) continue;
      const [oldMode = '', newMode = '', oldOid = '', newOid = ''] = (tokens[i] ?? '').slice(1).split(' ');
      entry = { oldMode, newMode, oldOid, newOid };
    }
  }
  if (!entry) return same(); // unchanged between the two (or absent from both)
  // A blob side has a file or symlink mode; 000000 (absent) and 160000 (gitlink) are missing.
  const isBlob = (mode: string): boolean => mode.startsWith('100') || mode === '120000';
  const wanted = [isBlob(entry.oldMode) ? entry.oldOid : null, isBlob(entry.newMode) ? entry.newOid : null];
  const objects = await readObjectsLimited(gitCtx, wanted.filter((o): o is string => o !== null), limit);
  const side = (oid: string | null, mode: string): FileSide => {
    if (oid === null) return MISSING;
    const object = objects.get(oid);
    if (!object) throw new ChronoscopeError('internal', `object ${oid} of ${rel} is missing from the store`);
    if (object.data === null) return { kind: 'too_large', size: object.size, mode };
    if (mode === '120000') return { kind: 'symlink', size: object.size, mode, text: object.data.toString('utf8') };
    return sideFromBuffer(object.data, mode, object.size, rel, limit);
  };
  return [side(wanted[0] ?? null, entry.oldMode), side(wanted[1] ?? null, entry.newMode)];
}

export async function sideFromDisk(gitCtx: GitContext, root: string, rel: string, excludeArgs: string[] = [], limit = VIEWER_MAX_BYTES): Promise<FileSide> {
  // Never read through a symlinked folder: git sees the link, not what is behind it.
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const st = await fs.lstat(path.join(root, ...parts.slice(0, i))).catch(() => null);
    if (!st || !st.isDirectory()) return MISSING;
  }
  const full = path.join(root, rel);
  const st = await fs.lstat(full).catch(() => null);
  if (!st || !(st.isFile() || st.isSymbolicLink())) return MISSING;
  // Ignored files (credentials, build output) are not part of the workspace's history: don't show them.
  // ls-files rather than check-ignore: it takes the --exclude arguments that
  // outrank the workspace's .gitignore (credentials), as the scan does.
  const ignored = splitNul(await git(gitCtx, ['ls-files', '-z', '-i', '-o', '-c', '--exclude-standard', ...excludeArgs, '--', rel]));
  if (ignored.includes(rel)) return MISSING;
  if (st.isSymbolicLink()) return { kind: 'symlink', size: st.size, mode: '120000', text: await fs.readlink(full) };
  const mode = st.mode & 0o111 ? '100755' : '100644';
  if (st.size > limit) return { kind: 'too_large', size: st.size, mode };
  // Bounded and regular-only: the file may have been swapped for a FIFO or a device since the lstat.
  const data = await readBounded(full, limit).catch((err: unknown) => {
    if (err instanceof UnreadableFile) return null;
    throw err;
  });
  if (data === null) return { kind: 'too_large', size: st.size, mode };
  return sideFromBuffer(data, mode, data.length, rel, limit);
}
