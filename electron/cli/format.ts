// Human-readable renderings of the domain model, shared by the commands.
import { precedesCall, titleTimeId, type CheckpointWords } from '../../shared/checkpoint-words.js';
import type { Checkpoint, CheckpointStats, FileChange, RestorePreview, SkippedFile } from '../../shared/model.js';
import { CHANGE_STATUS_LETTER } from '../../shared/model.js';
import { plural, relativeTime, safeText, shortId, style, table } from './output.js';

export function statsText(stats: CheckpointStats): string {
  if (stats.files === 0) return 'no changes';
  return `${plural(stats.files, 'file')} ${style.added(`+${stats.insertions}`)} ${style.removed(`-${stats.deletions}`)}`;
}

/** “fix the build” (10:42, 1a2b3c4d): a checkpoint named by its title and local time, the id second. */
export function checkpointName(cp: Pick<Checkpoint, 'id' | 'time_ms'>, title: string | null): string {
  const d = new Date(cp.time_ms);
  const time = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return safeText(titleTimeId(title, time, cp.id));
}

/** "1a2b3c4d  3 min ago  manual  fix the build" on one line. */
export function checkpointSummary(cp: Checkpoint, now = Date.now()): string {
  const parts = [style.id(shortId(cp.id)), relativeTime(cp.time_ms, now), cp.trigger];
  if (cp.reason) parts.push(safeText(cp.reason));
  if (cp.pinned) parts.push(style.warn('[pinned]'));
  return parts.join('  ');
}

/** The lane a checkpoint is on: H for Hermes Agent's own /rollback store, blank for Chronoscope's. */
export function laneMark(cp: Checkpoint): string {
  return cp.origin === 'hermes' ? style.warn('H') : '';
}

export function checkpointTable(checkpoints: readonly (Checkpoint & CheckpointWords)[], now = Date.now()): string[] {
  // The H column appears only when some checkpoint is Hermes'.
  const lanes = checkpoints.some((cp) => cp.origin === 'hermes');
  // So does the DAMAGED column, when some checkpoint cannot be read back whole (chronoscope check says what each lost).
  const damaged = checkpoints.some((cp) => cp.damaged === true);
  // And WHO, when some checkpoint is a teammate's (share pull): person @ machine.
  const team = checkpoints.some((cp) => cp.shared !== undefined);
  const rows = checkpoints.map((cp, i) => [
    String(i + 1),
    ...(lanes ? [laneMark(cp)] : []),
    ...(team ? [cp.shared ? safeText(`${cp.shared.person} @ ${cp.shared.machine}`) : 'you'] : []),
    ...(damaged ? [cp.damaged ? style.removed('damaged') : ''] : []),
    style.id(shortId(cp.id)),
    relativeTime(cp.time_ms, now),
    cp.trigger,
    String(cp.stats.files),
    `${style.added(`+${cp.stats.insertions}`)} ${style.removed(`-${cp.stats.deletions}`)}`,
    [safeText(cp.title), cp.note ? style.dim(`(${safeText(cp.note)})`) : '', cp.pinned ? style.warn('[pinned]') : '']
      .filter((s) => s !== '')
      .join(' '),
  ]);
  return table(
    [
      { header: '#', align: 'right' },
      ...(lanes ? [{ header: 'H' }] : []),
      ...(team ? [{ header: 'WHO' }] : []),
      ...(damaged ? [{ header: 'DAMAGED' }] : []),
      { header: 'ID' },
      { header: 'WHEN' },
      { header: 'TRIGGER' },
      { header: 'FILES', align: 'right' },
      { header: '+/-' },
      { header: 'WHAT CHANGED' },
    ],
    rows,
  );
}

/** Full details of one checkpoint, one fact a line. */
export function checkpointDetails(cp: Checkpoint & CheckpointWords, now = Date.now()): string[] {
  const lines = [
    `${style.bold('checkpoint')} ${style.id(cp.id)}${cp.pinned ? `  ${style.warn('[pinned]')}` : ''}`,
    `what     ${safeText(cp.title)}`,
    ...(cp.note ? [`         ${safeText(cp.note)}`] : []),
    `time     ${cp.time} (${relativeTime(cp.time_ms, now)})`,
    `trigger  ${cp.trigger}`,
  ];
  // A hook checkpoint taken before a call: its note says that call ("before: Edit src/a.ts"); its own
  // reason and tool are that call's, not its change's maker, so they are not repeated as if they were.
  const before = precedesCall(cp);
  if (cp.reason && !before) lines.push(`reason   ${safeText(cp.reason)}`);
  if (cp.agent) lines.push(before ? `taken    by ${safeText(cp.agent)}'s hook` : `agent    ${safeText(cp.agent)}`);
  if (cp.tool && !before) lines.push(`tool     ${safeText(cp.tool)}`);
  if (cp.session) lines.push(`session  ${safeText(cp.session)}`);
  if (cp.restore_target) lines.push(`target   ${style.id(shortId(cp.restore_target))}`);
  if (cp.origin === 'hermes') lines.push(`from     Hermes Agent's /rollback store (read-only; Hermes prunes it)`);
  if (cp.shared) lines.push(`from     ${safeText(`${cp.shared.person} <${cp.shared.email}> @ ${cp.shared.machine}`)} (shared over the team's git remote; read-only)`);
  lines.push(`changes  ${statsText(cp.stats)}`);
  for (const skipped of cp.skipped) {
    lines.push(style.warn(`left out (${skippedWhyText(skipped.why)}): ${safeText(skipped.path)}`));
  }
  return lines;
}


function letter(change: FileChange): string {
  const text = CHANGE_STATUS_LETTER[change.status];
  if (change.status === 'added') return style.added(text);
  if (change.status === 'deleted') return style.removed(text);
  return text;
}

function countText(change: FileChange): string {
  if (change.binary) return style.dim('binary');
  const parts: string[] = [];
  if (change.insertions) parts.push(style.added(`+${change.insertions}`));
  if (change.deletions) parts.push(style.removed(`-${change.deletions}`));
  return parts.join(' ');
}

function pathText(change: FileChange): string {
  const path = safeText(change.path);
  const from = change.old_path !== undefined ? `${safeText(change.old_path)} → ` : '';
  const mode = change.mode_changed ? style.dim(` (mode ${change.old_mode ?? '-'} → ${change.new_mode ?? '-'})`) : '';
  return `${from}${path}${mode}`;
}

/** "M  src/a.ts  +3 -1" lines, aligned; then a total. */
export function changeList(files: readonly FileChange[]): string[] {
  if (files.length === 0) return ['no changes'];
  const rows = files.map((change) => [letter(change), pathText(change), countText(change)]);
  const lines = table([{ header: '' }, { header: 'PATH' }, { header: '' }], rows).slice(1);
  const insertions = files.reduce((sum, f) => sum + (f.insertions ?? 0), 0);
  const deletions = files.reduce((sum, f) => sum + (f.deletions ?? 0), 0);
  lines.push(
    style.dim(`${plural(files.length, 'file')} changed, ${plural(insertions, 'insertion')}, ${plural(deletions, 'deletion')}`),
  );
  return lines;
}

function section(verb: string, paths: readonly string[], limit = 20): string[] {
  if (paths.length === 0) return [];
  const lines = [`  ${verb} ${plural(paths.length, 'file')}:`];
  for (const path of paths.slice(0, limit)) lines.push(`    ${safeText(path)}`);
  if (paths.length > limit) lines.push(style.dim(`    … and ${paths.length - limit} more (--json lists all)`));
  return lines;
}

export function previewLines(preview: RestorePreview): string[] {
  const lines = [`restoring ${style.id(shortId(preview.target))} would:`];
  const body = [
    ...section('overwrite', preview.modified),
    ...section('create', preview.added),
    ...section('delete', preview.deleted),
    ...(preview.keep_untracked
      ? section('keep (untracked, --keep-untracked)', preview.untracked_removed)
      : section('remove untracked', preview.untracked_removed)),
  ];
  lines.push(...(body.length > 0 ? body : ['  change nothing: the workspace already matches']));
  if (preview.changed_since_restore && preview.changed_since_restore.length > 0) {
    lines.push(style.warn(`  changed since that restore, and would be reverted too (restore with --path to undo only some):`));
    lines.push(...section('revert', preview.changed_since_restore).slice(1));
  }
  return lines;
}

/** Why a file was left out of a checkpoint, in words. */
export function skippedWhyText(why: SkippedFile['why']): string {
  return why === 'unreadable' ? 'cannot be read' : why === 'special' ? 'not a regular file' : why === 'unrecordable' ? 'a name the store cannot record' : 'over the size limit';
}
