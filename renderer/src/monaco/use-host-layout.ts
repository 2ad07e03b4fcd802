// The editor follows its host's size, but not while the person scrubs: the
// panes above the diff (a safety note, left-out files, a change strip) come
// and go from one checkpoint to the next, and each resize is a full Monaco
// layout and render (50–100 ms). While scrubbing the editor keeps its size
// (the scrub preview covers it) and catches up once, when scrubbing stops.
// The size is always handed to the editor, never left for it to measure: the
// diff editor measures its own root, whose height it pins in pixels; created
// in a host with no height yet (a new user's first diff), it pinned 5 px (its
// floor) and re-measured those 5 px at every layout after, however tall the
// host became. A host with no size yet is not laid out at all.
import { useEffect, type RefObject } from 'react';
import { useScrub } from '../state/scrub.js';

interface Layoutable {
  layout(dimension?: { width: number; height: number }): void;
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
      const width = el.clientWidth;
      const height = el.clientHeight;
      if (width > 0 && height > 0) editor.current?.layout({ width, height });
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
