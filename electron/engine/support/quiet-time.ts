// A wait before background work starts (an index sync, a join of packs), so
// a burst of snapshots shares one run; `hurry` ends it at once for whoever
// settles the work (the CLI and the app before they exit, the benchmark).
export interface QuietTime {
  elapsed: Promise<void>;
  hurry: () => void;
}

export function quietTime(ms: number): QuietTime {
  let hurry = (): void => undefined;
  const elapsed = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    hurry = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { elapsed, hurry: () => hurry() };
}
