// "This editor has drawn its text": the frame after Monaco rendered, so the
// light preview that stood in for it (ScrubPreview) is removed only once the
// editor under it shows the same thing — never a blank or half-drawn pane.
import { useEffect, useRef } from 'react';

/** A function to call whenever the editor has (re)drawn its content; `onPainted` runs on the next frame, at most once per frame. */
export function usePaintedSignal(onPainted: () => void): () => void {
  const latest = useRef(onPainted);
  latest.current = onPainted;
  const frame = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return useRef(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      latest.current();
    });
  }).current;
}
