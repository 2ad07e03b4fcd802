// The editor follows its host's size, but not while the person scrubs: the
// panes above the diff (a safety note, left-out files, a change strip) come
// and go from one checkpoint to the next, and each resize is a full Monaco
// layout and render (50–100 ms). While scrubbing the editor keeps its size
// (the scrub preview covers it) and catches up once, when scrubbing stops.
import { useEffect, type RefObject } from 'react';
import { useScrub } from '../state/scrub.js';

interface Layoutable {
  layout(): void;
}

export function useHostLayout(editor: RefObject<Layoutable | null>, host: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let frame = 0;
    let due = false;
    const layout = () => {
      frame = 0;
      due = false;
      editor.current?.layout();
    };
    const resized = () => {
      due = true;
      if (!useScrub.getState().active && frame === 0) frame = requestAnimationFrame(layout);
    };
    const observer = new ResizeObserver(resized);
    observer.observe(el);
    const off = useScrub.subscribe((s) => {
      if (!s.active && due && frame === 0) frame = requestAnimationFrame(layout);
    });
    return () => {
      observer.disconnect();
      off();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [editor, host]);
}
