// chronoscope why <file>[:<line>]: the checkpoint, call, prompt and agent that
// last changed a line (a blame over the workspace's checkpoints,
// electron/prompts/blame.ts); for a whole file, the prompts that changed it,
// newest first. Lines are numbered as in the file's newest checkpoint.
// chronoscope why <commit>: what led to a commit of the workspace's repository,
// from the notes sharing wrote (why-commit.ts); a file of that name wins.
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../../shared/errors.js';
import { whyFile, whyLine } from '../../prompts/why.js';
import { checkPath, checkedWorkspaceDir, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { printJson, printLines, safeText } from '../output.js';
import { whyFileText, whyLineText } from '../prompt-format.js';
import { whyCommit } from './why-commit.js';

/** `src/a.ts:12` → the path and line; a trailing `:<digits>` is always a line number. */
export function parseTarget(target: string): { path: string; line?: number } {
  const m = /^(.*):(\d+)$/.exec(target);
  if (!m) return { path: target };
  const line = Number(m[2]);
  if (!Number.isSafeInteger(line) || line < 1) throw new UsageError(`line ${m[2] ?? ''}: lines count from 1`);
  return { path: m[1] ?? '', line };
}

const inside = (root: string, dir: string): boolean => {
  const rel = relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The path relative to the workspace's root; outside it, a usage error. A relative path is taken
 * from the current folder when that is in the workspace (as a shell completes it), else from the
 * workspace's root (`why src/a.ts -w ~/proj` run from elsewhere).
 */
function workspaceRelative(root: string, given: string): string {
  const base = inside(root, process.cwd()) ? process.cwd() : root;
  const rel = relative(root, resolve(base, given));
  if (rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel)) {
    throw new UsageError(`${safeText(given)} is ${rel === '' ? 'the workspace itself' : 'outside the workspace'} ${safeText(root)}; why takes a file in it`);
  }
  return checkPath(rel.split('\\').join('/'));
}

export function registerWhy(program: Command): void {
  withCommonOptions(
    program
      .command('why')
      .description('which checkpoint, call, prompt and agent last changed a line (file:line), which prompts changed a file, or which led to a commit')
      .argument('<file[:line]|commit>', 'a file in the workspace (relative to the current folder), optionally with a line number; or a commit of its git repository'),
  ).action(async (target: string, options: CommonOptions) => {
    const { dir } = await checkedWorkspaceDir(options);
    const onDisk = [process.cwd(), dir].some((base) => existsSync(resolve(base, target)));
    if (!onDisk && (await whyCommit(target, options))) return;
    const { path: given, line } = parseTarget(target);
    if (given === '') throw new UsageError('name a file: chronoscope why <file>[:<line>]');
    // `src/a.ts:abc`, `src/a.ts:-1`, `src/a.ts:`: a file that is there, with a line that is no number.
    const colon = line === undefined && !onDisk ? /^(.+):([^/\\]*)$/.exec(target) : null;
    if (colon && [process.cwd(), dir].some((base) => existsSync(resolve(base, colon[1]!)))) {
      throw new UsageError(`${JSON.stringify(safeText(colon[2]!))} is not a line number: chronoscope why <file>:<line>, lines count from 1`);
    }
    const store = await openCliStore();
    const workspace = await store.workspace(dir, { register: false });
    const rel = workspaceRelative(workspace.root, given);
    if (line !== undefined) {
      const answer = await whyLine(store.home, workspace, rel, line);
      if (options.json) printJson(answer);
      else printLines(whyLineText(answer));
      return;
    }
    const answer = await whyFile(store.home, workspace, rel);
    if (options.json) printJson(answer);
    else printLines(whyFileText(answer));
  });
}
