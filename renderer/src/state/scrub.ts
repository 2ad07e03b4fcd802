// Whether the person is scrubbing: the slider's handle held down, or steps by
// key in quick succession. While scrubbing, the diff pane shows each step in
// a light preview and Monaco keeps its text and size (a swap or a layout of
// the editor is 50–150 ms: one per step would stall the drag); when scrubbing
// stops Monaco shows the diff where the handle stopped (DiffArea.tsx).
import { useEffect, useReducer, useRef } from 'react';
import { create } from 'zustand';
/** Steps by key closer together than this count as one scrub. */
const KEY_PAUSE_MS = 160;

/** `held`: the handle is down (a drag: steps jump anywhere, so nothing beside them is worth fetching ahead). */
export const useScrub = create<{ active: boolean; held: boolean }>()(() => ({ active: false, held: false }));

let timer: ReturnType<typeof setTimeout> | null = null;

function set(active: boolean): void {
  if (useScrub.getState().active !== active) useScrub.setState({ active });
}

/** The handle is down (true) or released (false). */
export function holdScrub(on: boolean): void {
  if (timer) clearTimeout(timer);
  timer = null;
  useScrub.setState({ active: on, held: on });
}

/** One step by key: scrubbing until the keys pause. */
export function pulseScrub(): void {
  if (useScrub.getState().held) return;
  set(true);
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    set(false);
  }, KEY_PAUSE_MS);
}

/**
 * `value` as it was at most `every` ms ago while the handle is dragged, else
 * as it is: for views that can trail the handle by a few frames (the
 * checkpoint list) rather than redo their layout at every step of a drag,
 * where a step jumps anywhere (steps by key move one row: those are cheap to
 * follow). While dragging the catch-up comes in a task of its own (a timer),
 * never in the same frame as the step that the diff and the slider are
 * drawing; on release it comes at once (the diff of the stop is already on
 * screen by then).
 */
export function useScrubThrottled<T>(value: T, every: number): T {
  const dragging = useScrub((s) => s.held);
  const shown = useRef(value);
  const at = useRef(0);
  const woken = useRef(false);
  const [, wake] = useReducer((x: number) => x + 1, 0);
  const due = !dragging || woken.current;
  woken.current = false;
  if (due && shown.current !== value) {
    shown.current = value;
    at.current = performance.now();
  }
  const behind = shown.current !== value;
  useEffect(() => {
    if (!behind) return;
    const timer = setTimeout(
      () => {
        woken.current = true;
        wake();
      },
      Math.max(0, every - (performance.now() - at.current)),
    );
    return () => clearTimeout(timer);
  });
  return shown.current;
}
