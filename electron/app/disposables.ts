// Every listener, timer, watcher and subscription the app service starts is
// registered here, so dispose() closes all of them and the process can exit.
export interface Disposable {
  dispose(): void | Promise<void>;
}

export class DisposableStore implements Disposable {
  private items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Registers `item`; if the store is already disposed, disposes it at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      void Promise.resolve(item.dispose()).catch(() => undefined);
      return item;
    }
    this.items.add(item);
    return item;
  }

  /** Removes `item` without disposing it (the owner disposed it already). */
  delete(item: Disposable): void {
    this.items.delete(item);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const items = [...this.items].reverse();
    this.items.clear();
    // One failing disposal must not leave the others running.
    await Promise.allSettled(items.map(async (item) => item.dispose()));
  }
}

export function toDisposable(fn: () => void | Promise<void>): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      return fn();
    },
  };
}

/** A repeating timer that never keeps the process alive on its own and is cleared by dispose(). */
export function interval(fn: () => void, ms: number): Disposable {
  const handle = setInterval(fn, ms);
  handle.unref();
  return toDisposable(() => clearInterval(handle));
}
