// Words for what a checkpoint or a restore left alone: files a snapshot could
// not take in, and paths a restore did not write. Pure, so tests can pin them.
import type { RestoreResult, SkippedFile } from '../../../shared/model.js';

import { megabytes } from '../../../shared/checkpoint-words.js';

export { megabytes };

const MB = 1024 * 1024;

/**
 * Why a file is not in a checkpoint, in words. The limit is today's setting; the
 * checkpoint may predate a change to it, so it is only named when the file is
 * actually over it — otherwise the file's own size is the honest figure.
 */
export function skippedReason(file: SkippedFile, limitMb: number | null): string {
  switch (file.why) {
    case 'unreadable':
      return 'could not be read';
    case 'special':
      return 'not a regular file (pipe, socket or device)';
    case 'unrecordable':
      return 'a name the store cannot record (not UTF-8, or like .git)';
    case 'too_large':
      if (limitMb !== null && file.size > limitMb * MB) return `over the size limit (${limitMb} MB)`;
      return file.size > 0 ? `over the size limit (the file is ${megabytes(file.size)})` : 'over the size limit';
  }
}

export interface LeftAloneGroup {
  key: 'conflicts' | 'skipped';
  title: string;
  hint: string;
  paths: string[];
}

/** The paths a restore left as they were, grouped; empty when it wrote everything. */
export function restoreLeftAlone(result: Pick<RestoreResult, 'conflicts' | 'skipped'>): LeftAloneGroup[] {
  const groups: LeftAloneGroup[] = [
    {
      key: 'conflicts',
      title: 'Changed while restoring — left as is',
      hint: 'These files changed on disk after the safety checkpoint, so the restore did not overwrite them.',
      paths: result.conflicts ?? [],
    },
    {
      key: 'skipped',
      title: 'Not restored — something unrecorded was in the way',
      hint: 'A symlink or a file no checkpoint knows was where these would go, so they were not written.',
      paths: result.skipped ?? [],
    },
  ];
  return groups.filter((g) => g.paths.length > 0);
}

/** Why one file was left out and what to do: "60 MB, over the 50 MB limit — raise it in Settings or exclude it". */
export function leftOutNote(file: SkippedFile, limitMb: number | null): string {
  if (file.why !== 'too_large') return skippedReason(file, limitMb);
  const size = file.size > 0 ? `${megabytes(file.size)}, ` : '';
  const limit = limitMb !== null && file.size > limitMb * MB ? `the ${limitMb} MB limit` : 'the size limit';
  return `${size}over ${limit} — raise it in Settings or exclude it`;
}

/** The same with the file's name first: "dump.bin, 60 MB, over the 50 MB limit — raise it in Settings or exclude it". */
export function leftOutSentence(file: SkippedFile, limitMb: number | null): string {
  return `${file.path}, ${leftOutNote(file, limitMb)}`;
}
