// Whether the diff pane is drawn side by side now: the person's choice, and
// the pane wide enough for 80 columns a side (lib/side-by-side.ts). Follows
// the pane's width; re-renders only when the answer changes.
import { useEffect, useState, type RefObject } from 'react';
import { drawsSideBySide } from '../lib/side-by-side.js';

export function useSideBySide(pane: RefObject<HTMLElement | null>, choice: 'side' | 'inline'): boolean {
  const [side, setSide] = useState(() => (pane.current ? drawsSideBySide(choice, pane.current.clientWidth) : false));
  useEffect(() => {
    const el = pane.current;
    if (!el) return;
    const update = () => setSide(drawsSideBySide(choice, el.clientWidth));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [pane, choice]);
  return side;
}
