// A long ServerMessage goes out in slices and is joined back to the same text.
import { describe, expect, it } from 'vitest';
import { createFrameJoiner, framesOf, SLICE_CHARS } from '../../shared/ipc-frames.js';

function roundTrip(texts: string[], sliceChars?: number): string[] {
  const join = createFrameJoiner();
  const out: string[] = [];
  for (const text of texts) {
    for (const frame of framesOf(text, sliceChars)) {
      const whole = join(frame);
      if (whole !== null) out.push(whole);
    }
  }
  return out;
}

describe('message frames', () => {
  it('sends a short message as itself, one frame', () => {
    const text = JSON.stringify({ type: 'result', id: 1, result: { ok: true, value: 'x' } });
    expect(framesOf(text)).toEqual([text]);
  });

  it('slices a long message behind a header, and joins it back, among short ones', () => {
    const long = JSON.stringify({ type: 'result', id: 2, result: { ok: true, value: 'y'.repeat(SLICE_CHARS * 3 + 17) } });
    const frames = framesOf(long);
    expect(frames[0]).toBe('{"type":"sliced","parts":4}');
    expect(frames.slice(1).every((f) => f.length <= SLICE_CHARS)).toBe(true);
    expect(roundTrip(['{"type":"event"}', long, '{"type":"result","id":3}'])).toEqual(['{"type":"event"}', long, '{"type":"result","id":3}']);
  });

  it('never cuts a surrogate pair in two (a lone half would arrive as U+FFFD)', () => {
    // Every boundary of 10-char slices falls inside an emoji somewhere along this text.
    const text = JSON.stringify({ v: 'a😀b😀😀c'.repeat(40) });
    const frames = framesOf(text, 10).slice(1);
    for (const frame of frames) {
      expect(frame.charCodeAt(frame.length - 1) >= 0xd800 && frame.charCodeAt(frame.length - 1) <= 0xdbff).toBe(false);
      expect(Buffer.from(frame, 'utf8').toString('utf8')).toBe(frame);
    }
    expect(roundTrip([text], 10)).toEqual([text]);
  });

  it('reads a message whose text merely looks like a header as a message', () => {
    const join = createFrameJoiner();
    expect(join('{"type":"sliced","parts":0}')).toBe('{"type":"sliced","parts":0}');
    expect(join('{"type":"sliced","parts":"2"}')).toBe('{"type":"sliced","parts":"2"}');
  });
});
