// Progress of a long snapshot (files hashed / total), for the app's progress
// line and the CLI's stderr. Quiet for the first second — most snapshots end
// well before, and a flash of progress is noise — then at most every
// EVERY_MS, and once more at the end if anything was said.
import type { SnapshotProgress } from './api.js';

const AFTER_MS = 1000;
const EVERY_MS = 250;

export interface ProgressThrottle {
  update(hashed: number, total: number): void;
  end(): void;
}

export function throttleProgress(report: (p: SnapshotProgress) => void, root: string, now: () => number = Date.now): ProgressThrottle {
  const started = now();
  let said = 0;
  let last = { hashed: 0, total: 0 };
  const say = (done: boolean): void => {
    said = now();
    try {
      report({ root, ...last, done });
    } catch {
      /* a listener's failure is not the snapshot's */
    }
  };
  return {
    update(hashed, total) {
      last = { hashed, total };
      const t = now();
      if (t - started >= AFTER_MS && t - said >= EVERY_MS) say(false);
    },
    end() {
      if (said > 0) say(true);
    },
  };
}

/** "hashing 1,234 of 10,000 files" (the app's progress line, the CLI's stderr). */
export function progressMessage(p: SnapshotProgress): string {
  return p.done ? `hashed ${p.total.toLocaleString('en-US')} files` : `hashing ${p.hashed.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} files`;
}
