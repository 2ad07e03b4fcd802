// chronoscope diff: what changed.
//   diff <id>              what that checkpoint changed (against the checkpoint before it)
//   diff <a> <b>           from checkpoint a to checkpoint b
//   diff <id> workspace    from a checkpoint to the files on disk now
//   --file PATH            one file: a unified diff (or, with --json, the FileDiff with both sides)
import type { Command } from 'commander';
import { ChronoscopeError } from '../../../shared/errors.js';
import { WORKSPACE, type FileChange, type FileDiff, type FileSide } from '../../../shared/model.js';
import type { Workspace } from '../../engine/api.js';
import { checkPath, checkRef, openWorkspace, withCommonOptions, type CommonOptions, CHECKPOINT_ARG_HELP } from '../context.js';
import { changeList } from '../format.js';
import { formatBytes, printJson, printLines, safeText, shortId, style } from '../output.js';
import { unifiedHunks } from '../../engine/unified-diff.js';

interface DiffCommandOptions extends CommonOptions {
  file?: string;
}

/** The two ends of the diff: `from` null means "before the first checkpoint" (nothing). */
interface Ends {
  from: string | null;
  to: string;
}

export function registerDiff(program: Command): void {
  withCommonOptions(
    program
      .command('diff')
      .description('show what changed: in a checkpoint, between two, or from one to the workspace')
      .argument('<from>', CHECKPOINT_ARG_HELP)
      .argument('[to]', "another checkpoint, or 'workspace' for the files on disk now")
      .option('-f, --file <path>', 'show one file: a unified diff, or both sides with --json'),
  ).action(async (from: string, to: string | undefined, options: DiffCommandOptions) => {
    checkRef(from);
    if (to !== undefined && to !== WORKSPACE) checkRef(to);
    const file = options.file === undefined ? undefined : checkPath(options.file);
    const workspace = await openWorkspace(options);
    const ends = await resolveEnds(workspace, from, to);
    if (file !== undefined) {
      const fileDiff = await oneFile(workspace, ends, file);
      if (options.json) printJson(fileDiff);
      else printLines(fileDiffLines(fileDiff));
      return;
    }
    const files = await changedFiles(workspace, ends);
    if (options.json) {
      printJson({ from: ends.from, to: ends.to, files });
      return;
    }
    printLines([style.dim(`${ends.from === null ? '(nothing)' : shortId(ends.from)} → ${endName(ends.to)}`), ...changeList(files)]);
  });
}

function endName(end: string): string {
  return end === WORKSPACE ? 'workspace' : shortId(end);
}

async function resolveEnds(workspace: Workspace, from: string, to: string | undefined): Promise<Ends> {
  const fromCp = await workspace.resolve(from);
  if (to !== undefined) {
    return { from: fromCp.id, to: to === WORKSPACE ? WORKSPACE : (await workspace.resolve(to)).id };
  }
  // One id: what that checkpoint changed, so compare it with the one before it
  // in its own lane (a Hermes /rollback checkpoint with Hermes' one before it).
  const all = await workspace.list({ lanes: true });
  const index = all.findIndex((cp) => cp.id === fromCp.id);
  const previous = index >= 0 ? all.slice(index + 1).find((cp) => cp.origin === fromCp.origin) : undefined;
  return { from: previous?.id ?? null, to: fromCp.id };
}

async function changedFiles(workspace: Workspace, ends: Ends): Promise<FileChange[]> {
  if (ends.from !== null) return (await workspace.diff(ends.from, ends.to)).files;
  // The first checkpoint: everything in it is new, which is what show reports.
  return (await workspace.show(ends.to)).files;
}

const MISSING: FileSide = { kind: 'missing', size: null, mode: null };

async function oneFile(workspace: Workspace, ends: Ends, path: string): Promise<FileDiff> {
  if (ends.from !== null) return workspace.fileDiff(ends.from, ends.to, path);
  // The first checkpoint has nothing before it: its side of the file is all new.
  const same = await workspace.fileDiff(ends.to, ends.to, path);
  if (same.new.kind === 'missing') throw new ChronoscopeError('not_found', `${path} is not in checkpoint ${shortId(ends.to)}`);
  return { ...same, from: '', old: MISSING };
}

function sideLabel(side: FileSide): string | null {
  switch (side.kind) {
    case 'binary':
      return `binary, ${formatBytes(side.size ?? 0)}`;
    case 'too_large':
      return `too large to show, ${formatBytes(side.size ?? 0)}`;
    case 'symlink':
      return `symlink → ${safeText(side.text ?? '')}`;
    case 'missing':
      return 'absent';
    case 'text':
      return null;
  }
}

function fileDiffLines(diff: FileDiff): string[] {
  const oldName = diff.from === '' ? '(nothing)' : shortId(diff.from);
  const lines = [style.bold(`--- ${oldName}/${safeText(diff.path)}`), style.bold(`+++ ${endName(diff.to)}/${safeText(diff.path)}`)];
  if (diff.old.mode !== diff.new.mode && diff.old.mode !== null && diff.new.mode !== null) {
    lines.push(style.dim(`mode ${diff.old.mode} → ${diff.new.mode}`));
  }
  const oldLabel = sideLabel(diff.old);
  const newLabel = sideLabel(diff.new);
  const oldText = diff.old.kind === 'text' || diff.old.kind === 'missing' ? (diff.old.text ?? '') : null;
  const newText = diff.new.kind === 'text' || diff.new.kind === 'missing' ? (diff.new.text ?? '') : null;
  if (oldText === null || newText === null) {
    lines.push(`old: ${oldLabel ?? 'text'}`, `new: ${newLabel ?? 'text'}`);
    return lines;
  }
  if (diff.old.kind === 'missing' && diff.new.kind === 'missing') {
    lines.push(style.dim('no such file on either side'));
    return lines;
  }
  if (oldText === newText) {
    lines.push(style.dim(diff.old.kind === diff.new.kind ? 'no change in content' : `${oldLabel ?? 'text'} → ${newLabel ?? 'text'}`));
    return lines;
  }
  for (const line of unifiedHunks(oldText, newText)) {
    if (line.startsWith('@@')) lines.push(style.dim(line));
    else if (line.startsWith('+')) lines.push(style.added(line));
    else if (line.startsWith('-')) lines.push(style.removed(line));
    else lines.push(line);
  }
  return lines;
}
