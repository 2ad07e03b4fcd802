// The typed event bus behind AppService.on/emit. A throwing listener is
// isolated: it must not stop the others or the emitter (the watcher, a host).
import type { EventChannel, EventMap } from '../../shared/ipc.js';

type Listener<E extends EventChannel> = (payload: EventMap[E]) => void;

export class EventBus {
  private listeners = new Map<EventChannel, Set<Listener<EventChannel>>>();

  on<E extends EventChannel>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    const stored = listener as unknown as Listener<EventChannel>;
    set.add(stored);
    return () => {
      set.delete(stored);
    };
  }

  emit<E extends EventChannel>(event: E, payload: EventMap[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as unknown as Listener<E>)(payload);
      } catch (err) {
        // A host's listener failing (e.g. a closed socket) is its own problem.
        process.emitWarning(`chronoscope: event listener for ${event} threw: ${String(err)}`);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
