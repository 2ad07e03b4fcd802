// Whether the person is scrubbing: the slider's handle held down, or steps by
// key in quick succession. While scrubbing, the diff editor swaps in a new
// text at most every SWAP_EVERY_MS (each swap is a Monaco layout and render,
// tens of ms: one per step would be a long frame per step); when scrubbing
// stops it shows the one where the handle stopped at once.
import { useEffect, useReducer, useRef } from 'react';
import { create } from 'zustand';

export const SWAP_EVERY_MS = 300;
/** Steps by key closer together than this count as one scrub. */
const KEY_PAUSE_MS = 160;

export const useScrub = create<{ active: boolean }>()(() => ({ active: false }));

let held = false;
let timer: ReturnType<typeof setTimeout> | null = null;

function set(active: boolean): void {
  if (useScrub.getState().active !== active) useScrub.setState({ active });
}

/** The handle is down (true) or released (false). */
export function holdScrub(on: boolean): void {
  held = on;
  if (timer) clearTimeout(timer);
  timer = null;
  set(on);
}

/** One step by key: scrubbing until the keys pause. */
export function pulseScrub(): void {
  if (held) return;
  set(true);
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    set(false);
  }, KEY_PAUSE_MS);
}

/**
 * `value` as it was at most `every` ms ago while scrubbing, else as it is:
 * for views that can trail the handle by a few frames (the checkpoint list)
 * rather than redo their layout at every step of a drag.
 */
export function useScrubThrottled<T>(value: T, every: number): T {
  const scrubbing = useScrub((s) => s.active);
  const shown = useRef(value);
  const at = useRef(0);
  const [, wake] = useReducer((x: number) => x + 1, 0);
  const now = performance.now();
  const due = !scrubbing || now - at.current >= every;
  if (due && shown.current !== value) {
    shown.current = value;
    at.current = now;
  }
  const behind = shown.current !== value;
  useEffect(() => {
    if (!behind) return;
    const timer = setTimeout(wake, Math.max(0, every - (performance.now() - at.current)));
    return () => clearTimeout(timer);
  });
  return shown.current;
}
