// Inflating many small zlib streams (a check proves tens of thousands of
// objects) with one zlib handle, reset between them. zlib.inflateSync builds a
// whole stream object, a zlib state and a 16 KB output buffer for every call:
// ~20 µs each, which made most of a check's time (19,000 objects: ~400 ms, ~25 ms
// reused). Node offers no public synchronous call on a reused handle, so this
// uses the handle under zlib.Inflate the way Node's own inflateSync drives it
// (`_handle.writeSync`, `_writeState`); where that shape is not there (another
// Node), every call falls back to inflateSync, same results.
import zlib from 'node:zlib';

interface RawHandle {
  reset(): void;
  writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void;
}

interface Engine {
  handle: RawHandle;
  /** [output bytes left, input bytes left] after a write. */
  state: Uint32Array;
  stream: zlib.Inflate;
}

function newEngine(): Engine | null {
  const stream = zlib.createInflate();
  // A damaged stream makes the handle report an error, and the stream emit it: heard here, never thrown at the process.
  stream.on('error', () => undefined);
  const inner = stream as unknown as { _handle?: Partial<RawHandle>; _writeState?: unknown };
  const handle = inner._handle;
  if (typeof handle?.writeSync !== 'function' || typeof handle.reset !== 'function' || !(inner._writeState instanceof Uint32Array)) {
    stream.destroy();
    return null;
  }
  return { handle: handle as RawHandle, state: inner._writeState, stream };
}

export class Inflater {
  private engine: Engine | null = newEngine();
  private scratch = Buffer.allocUnsafe(64 * 1024);

  /**
   * The whole stream inflated, exactly `size` bytes; null when it is damaged,
   * cut short or of another size. `transient`: the result may be a view of a
   * buffer the next call reuses (for content hashed and dropped at once).
   */
  inflate(input: Buffer, size: number, transient = false): Buffer | null {
    const engine = this.engine;
    if (!engine) return fallback(input, size);
    // One byte more than expected: a stream that holds more shows there.
    let out: Buffer;
    if (transient && size + 1 <= 64 * 1024 * 1024) {
      if (this.scratch.length < size + 1) this.scratch = Buffer.allocUnsafe(Math.max(size + 1, this.scratch.length * 2));
      out = this.scratch;
    } else {
      out = Buffer.allocUnsafe(size + 1);
    }
    const room = Math.min(out.length, size + 1);
    engine.handle.reset();
    engine.handle.writeSync(zlib.constants.Z_FINISH, input, 0, input.length, out, 0, room);
    if (engine.stream.destroyed) {
      // The handle is closed after an error: a fresh one for the next object.
      this.engine = newEngine();
      return null;
    }
    const produced = room - engine.state[0]!;
    return produced === size ? out.subarray(0, size) : null;
  }
}

function fallback(input: Buffer, size: number): Buffer | null {
  try {
    const data = zlib.inflateSync(input, { chunkSize: Math.min(Math.max(64, size + 64), 256 * 1024 * 1024) });
    return data.length === size ? data : null;
  } catch {
    return null;
  }
}
