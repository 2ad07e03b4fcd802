// The debounce rules with a hand-driven clock: deterministic, no real time.
import { describe, expect, it } from 'vitest';
import { ChangeDebouncer, type Batch, type Clock } from '../../electron/watcher/debounce.js';

class ManualClock implements Clock {
  time = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  armed = 0;

  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.armed++;
    this.timers.set(id, { at: this.time + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  get pendingTimers(): number {
    return this.timers.size;
  }
  /** Moves time forward, firing due timers in order. */
  async advance(ms: number): Promise<void> {
    await flushMicrotasks();
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].fn();
      await flushMicrotasks();
    }
    this.time = end;
    await flushMicrotasks();
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function setup(options: { quietMs?: number; maxWaitMs?: number; maxPaths?: number; flush?: (b: Batch) => Promise<void> } = {}) {
  const clock = new ManualClock();
  const batches: Batch[] = [];
  const debouncer = new ChangeDebouncer({
    clock,
    timing: () => ({ quietMs: options.quietMs ?? 1500, maxWaitMs: options.maxWaitMs ?? 30_000 }),
    flush: options.flush ?? (async (b) => void batches.push(b)),
    ...(options.maxPaths !== undefined ? { maxPaths: options.maxPaths } : {}),
  });
  return { clock, batches, debouncer };
}

describe('ChangeDebouncer', () => {
  it('tells what is not in a finished checkpoint yet: pending paths and those of a flush still running', async () => {
    let finish: () => void = () => undefined;
    const { clock, debouncer } = setup({ quietMs: 100, flush: () => new Promise<void>((r) => (finish = r)) });
    expect(debouncer.unsettled()).toEqual([]);
    debouncer.add(['a.ts']);
    expect(debouncer.unsettled()).toEqual(['a.ts']);
    await clock.advance(100); // the flush of a.ts starts and does not end yet
    debouncer.add(['b.ts']);
    expect(debouncer.unsettled()?.sort()).toEqual(['a.ts', 'b.ts']);
    finish();
    await clock.advance(0);
    expect(debouncer.unsettled()).toEqual(['b.ts']);
    debouncer.add(null); // a full scan is due: nobody can vouch for a list
    expect(debouncer.unsettled()).toBeNull();
  });

  it('flushes once changes have been quiet for quietMs, with deduped sorted paths', async () => {
    const { clock, batches, debouncer } = setup();
    debouncer.add(['src/b.ts', 'src/a.ts']);
    await clock.advance(1000);
    debouncer.add(['src/a.ts']);
    await clock.advance(1499);
    expect(batches).toEqual([]);
    await clock.advance(1);
    expect(batches).toEqual([{ paths: ['src/a.ts', 'src/b.ts'], count: 2 }]);
    expect(debouncer.pending).toBe(false);
  });

  it('flushes at maxWaitMs during continuous churn', async () => {
    const { clock, batches, debouncer } = setup({ quietMs: 1500, maxWaitMs: 10_000 });
    for (let t = 0; t < 9_500; t += 500) {
      debouncer.add([`f${t}`]);
      await clock.advance(500);
    }
    expect(batches).toHaveLength(0);
    debouncer.add(['last']);
    await clock.advance(500);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.count).toBe(20);
  });

  it('arms one timer per batch, not one per event', async () => {
    const { clock, debouncer } = setup();
    for (let i = 0; i < 1000; i++) debouncer.add([`f${i % 10}`]);
    expect(clock.armed).toBe(1);
    expect(clock.pendingTimers).toBe(1);
  });

  it('turns a batch over maxPaths into a full scan', async () => {
    const { clock, batches, debouncer } = setup({ maxPaths: 5 });
    debouncer.add(['a', 'b', 'c']);
    debouncer.add(['d', 'e', 'f']);
    await clock.advance(2000);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.paths).toBeNull();
    expect(batches[0]?.count).toBeGreaterThan(5);
  });

  it('queues exactly one more flush when changes arrive during a flush', async () => {
    const clockHolder: { release?: () => void } = {};
    const seen: Batch[] = [];
    const { clock, debouncer } = setup({
      flush: (b) => {
        seen.push(b);
        if (seen.length === 1) return new Promise<void>((resolve) => (clockHolder.release = resolve));
        return Promise.resolve();
      },
    });
    debouncer.add(['a']);
    await clock.advance(1500);
    expect(seen).toHaveLength(1);
    expect(debouncer.busy).toBe(true);
    debouncer.add(['b']);
    debouncer.add(['c']);
    await clock.advance(5000); // quiet period over while the first flush still runs
    expect(seen).toHaveLength(1);
    clockHolder.release?.();
    await clock.advance(0);
    expect(seen.map((b) => b.paths)).toEqual([['a'], ['b', 'c']]);
    expect(debouncer.pending).toBe(false);
  });

  it('drop() forgets pending changes and dispose() stops everything', async () => {
    const { clock, batches, debouncer } = setup();
    debouncer.add(['a']);
    debouncer.drop();
    await clock.advance(60_000);
    expect(batches).toEqual([]);
    debouncer.add(['b']);
    debouncer.dispose();
    expect(clock.pendingTimers).toBe(0);
    debouncer.add(['c']);
    await clock.advance(60_000);
    expect(batches).toEqual([]);
  });

  it('reads the timing at each batch (settings changes apply)', async () => {
    let quietMs = 1500;
    const clock = new ManualClock();
    const batches: Batch[] = [];
    const debouncer = new ChangeDebouncer({ clock, timing: () => ({ quietMs, maxWaitMs: 30_000 }), flush: async (b) => void batches.push(b) });
    quietMs = 200;
    debouncer.add(['a']);
    await clock.advance(200);
    expect(batches).toHaveLength(1);
  });
});
