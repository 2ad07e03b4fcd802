// A vertical divider between two panes: drag it, or focus it and use the
// arrow keys; double-click folds the pane before it. Widths live in the
// layout store (remembered).
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { PANE_LIMITS, useLayout } from '../state/layout.js';

export function Splitter({ pane, label, onFold }: { pane: keyof typeof PANE_LIMITS; label: string; onFold?: () => void }) {
  const width = useLayout((s) => s[pane]);
  const setWidth = useLayout((s) => s.setWidth);
  const start = useRef<{ x: number; width: number } | null>(null);
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = { x: e.clientX, width };
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current) setWidth(pane, start.current.width + e.clientX - start.current.x);
  };
  const onUp = () => {
    start.current = null;
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const delta = e.key === 'ArrowLeft' ? -16 : e.key === 'ArrowRight' ? 16 : 0;
    if (delta) {
      e.preventDefault();
      setWidth(pane, width + delta);
    }
  };
  const [min, max] = PANE_LIMITS[pane];
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      data-testid={`splitter-${pane}`}
      title={`${label}: drag to resize${onFold ? ', double-click to fold' : ''}`}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
      onDoubleClick={onFold}
      onKeyDown={onKey}
    />
  );
}
