// Peak memory of the benchmark's whole process tree — this process plus the
// git processes either side runs — sampled from /proc (Linux only). The
// kernel's own peak (maxRSS) covers this process alone; the sampler adds its
// children's resident sets as they run. Sampling every SAMPLE_MS can miss a
// child that lives less than that; the long ones (a first snapshot's
// update-index, git add -A) are the ones that matter.
import { readFileSync, readdirSync } from 'node:fs';

const SAMPLE_MS = 50;

/** One kB figure of /proc/<pid>/status (VmRSS, VmHWM…); 0 when gone. */
export function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function children(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    /* gone meanwhile */
  }
  return out;
}

/** Resident set of a process and all its descendants, in kB. */
export function treeRssKb(pid: number): number {
  let total = statusKb(pid, 'VmRSS');
  for (const child of children(pid)) total += treeRssKb(child);
  return total;
}

export class TreeRssSampler {
  private peakKb = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  readonly supported = process.platform === 'linux';

  start(): void {
    if (!this.supported) return;
    this.timer = setInterval(() => {
      this.peakKb = Math.max(this.peakKb, treeRssKb(process.pid));
    }, SAMPLE_MS);
    this.timer.unref();
  }

  /** Peak MB seen, or null where /proc is not available. */
  stop(): number | null {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.supported ? Math.round(this.peakKb / 1024) : null;
  }
}
