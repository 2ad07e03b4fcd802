// How one ServerMessage travels as WebSocket text frames. A long message goes
// as a header, `{"type":"sliced","parts":N}`, followed by N frames that joined
// are its JSON. Why: a browser takes in one text frame of megabytes in one
// piece on the page's own thread — 150–270 ms for 6 MB here, however the page
// then reads it — while slices of 256 KB arrive as tasks of a few ms each
// (docs/performance.md › Large files). Short messages go as one frame.

export const SLICE_CHARS = 256 * 1024;

export interface SlicedHeader {
  type: 'sliced';
  parts: number;
}

/** The frames that carry `text` (a ServerMessage's JSON), in order. */
export function framesOf(text: string, sliceChars: number = SLICE_CHARS): string[] {
  if (text.length <= sliceChars) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + sliceChars, text.length);
    // Never between the two halves of a surrogate pair: a lone half is not UTF-8 and would arrive as U+FFFD.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  const header: SlicedHeader = { type: 'sliced', parts: parts.length };
  return [JSON.stringify(header), ...parts];
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Reads frames back into whole messages' JSON, for the receiving side: each
 * call with one frame returns the message's text once it is complete, else null.
 */
export function createFrameJoiner(): (frame: string) => string | null {
  let waiting = 0;
  let parts: string[] = [];
  return (frame) => {
    if (waiting > 0) {
      parts.push(frame);
      waiting -= 1;
      if (waiting > 0) return null;
      const text = parts.join('');
      parts = [];
      return text;
    }
    const count = slicedParts(frame);
    if (count === null) return frame;
    waiting = count;
    return null;
  };
}

/** N when the frame is a sliced message's header, else null (cheap: looked at before any parse). */
function slicedParts(frame: string): number | null {
  if (frame.length > 64 || !frame.startsWith('{"type":"sliced"')) return null;
  try {
    const header = JSON.parse(frame) as Partial<SlicedHeader>;
    return header.type === 'sliced' && Number.isSafeInteger(header.parts) && (header.parts ?? 0) > 0 ? (header.parts as number) : null;
  } catch {
    return null;
  }
}
