// A hook works within a time budget and fails open: past the budget, or on
// any failure of ours, the agent goes on as if we were absent. What was
// decided before the budget ran out (an `ask` before an irreversible
// command is worked out first, from the command alone) is kept by the
// caller and still given: it never depends on the snapshot finishing.

export const DEFAULT_BUDGET_MS = 5000;

export interface Budget {
  /** Moves the deadline (measured from the start) once the store's settings are known. */
  setMs(ms: number): void;
}

export type BudgetOutcome = { done: true } | { done: false; why: string };

/** Runs `work` until it ends or the budget runs out. Never throws; abandoned work may go on but cannot crash the process. */
export async function withinBudget(work: (budget: Budget) => Promise<void>, initialMs: number, fixed: boolean): Promise<BudgetOutcome> {
  const started = Date.now();
  let budgetMs = initialMs;
  let timer: NodeJS.Timeout | undefined;
  let arm: () => void = () => undefined;
  const timeout = new Promise<'timeout'>((resolveTimeout) => {
    arm = () => {
      clearTimeout(timer);
      // Not unref()ed: the timer is what keeps the process alive until it has said "done", "gave up" or
      // "failed open" when the work waits on nothing else that holds the event loop open. It never holds
      // the agent past the budget: it fires then, and the hook exits as soon as it has spoken.
      timer = setTimeout(() => resolveTimeout('timeout'), Math.max(0, budgetMs - (Date.now() - started)));
    };
    arm();
  });
  const running = work({
    setMs: (ms) => {
      if (fixed) return;
      budgetMs = ms;
      arm();
    },
  }).then(() => 'done' as const);
  running.catch(() => undefined);
  try {
    const outcome = await Promise.race([running, timeout]);
    return outcome === 'done' ? { done: true } : { done: false, why: `gave up after ${budgetMs} ms (the agent goes on)` };
  } catch (err) {
    return { done: false, why: `failed open: ${oneLine(err)}` };
  } finally {
    clearTimeout(timer);
  }
}

export function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0] ?? 'unknown error';
}
