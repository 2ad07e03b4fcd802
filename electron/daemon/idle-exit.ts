// The daemon's idle clock: it leaves after `idleMs` with no hook request in
// flight and none arriving. One timer, moved only when a request ends: an
// idle daemon runs no code at all until then.
export class IdleExit {
  private inFlight = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    this.arm();
  }

  /** A request arrived (true) or was answered (false). */
  activity(busy: boolean): void {
    if (busy) {
      this.inFlight += 1;
      this.clear();
    } else {
      this.inFlight = Math.max(0, this.inFlight - 1);
      if (this.inFlight === 0) this.arm();
    }
  }

  dispose(): void {
    this.clear();
  }

  private arm(): void {
    this.clear();
    this.timer = setTimeout(this.onIdle, this.idleMs);
  }

  private clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
