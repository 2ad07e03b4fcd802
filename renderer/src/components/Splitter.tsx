// A divider between two panes: drag it, or focus it and use the arrow keys;
// double-click folds the pane before it. Sizes live in the layout store
// (remembered). In a narrow window the file list sits above the diff, so its
// divider turns horizontal there and sets the list's height (up/down keys)
// instead of being dropped: every divider stays a keyboard stop.
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { PANE_LIMITS, useLayout } from '../state/layout.js';

type Pane = 'listWidth' | 'filesWidth';
const STEP = 16;

export function Splitter({ pane, label, onFold }: { pane: Pane; label: string; onFold?: () => void }) {
  const narrow = useLayout((s) => s.narrow);
  const horizontal = pane === 'filesWidth' && narrow;
  const key: keyof typeof PANE_LIMITS = horizontal ? 'filesHeight' : pane;
  const stored = useLayout((s) => s[key]);
  const setWidth = useLayout((s) => s.setWidth);
  const start = useRef<{ at: number; size: number } | null>(null);
  const self = useRef<HTMLDivElement>(null);
  // The size on screen, for assistive technology (aria-valuenow): the stored one may be unset or capped by the stylesheet.
  const [shown, setShown] = useState(stored);
  useLayoutEffect(() => {
    const pane = self.current?.previousElementSibling;
    if (!pane) return;
    const read = () => setShown(current(self.current!));
    const observer = new ResizeObserver(read);
    observer.observe(pane);
    read();
    return () => observer.disconnect();
    // `current` reads the DOM: observed again only when the orientation turns.
  }, [horizontal]);
  /** The size on screen of the pane before the divider (the stored one may be unset or capped by the stylesheet). */
  const current = (el: HTMLElement): number => {
    const r = el.previousElementSibling?.getBoundingClientRect();
    if (!r) return stored;
    return Math.round(horizontal ? r.height : r.width);
  };
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = { at: horizontal ? e.clientY : e.clientX, size: current(e.currentTarget) };
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current) setWidth(key, start.current.size + (horizontal ? e.clientY : e.clientX) - start.current.at);
  };
  const onUp = () => {
    start.current = null;
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const less = horizontal ? 'ArrowUp' : 'ArrowLeft';
    const more = horizontal ? 'ArrowDown' : 'ArrowRight';
    const delta = e.key === less ? -STEP : e.key === more ? STEP : 0;
    if (delta) {
      e.preventDefault();
      setWidth(key, current(e.currentTarget) + delta);
    }
  };
  const [min, max] = PANE_LIMITS[key];
  const name = horizontal ? label.replace(/width$/, 'height') : label;
  return (
    <div
      ref={self}
      className={horizontal ? 'splitter splitter-horizontal' : 'splitter'}
      role="separator"
      aria-orientation={horizontal ? 'horizontal' : 'vertical'}
      aria-label={name}
      aria-valuenow={shown}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      data-testid={`splitter-${pane}`}
      title={`${name}: drag or use the arrow keys to resize${onFold ? ', double-click to fold' : ''}`}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
      onDoubleClick={onFold}
      onKeyDown={onKey}
    />
  );
}
