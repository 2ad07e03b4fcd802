// The end of a file someone else names (an agent's transcript_path: the hook's
// payload chooses it). Only a regular file, and only its last `maxBytes`:
// - opened with O_NONBLOCK, so a FIFO cannot block the open — a blocked open
//   sits in libuv's thread pool, and process.exit() waits for that thread, so
//   the hook process outlived its budget;
// - checked with fstat on the open descriptor (no window for a swap): a FIFO,
//   /dev/zero or a socket is refused, so nothing is read without a bound;
// - read from `size - maxBytes`: a session's transcript grows for hours.
// node:fs's callback forms only: node:fs/promises loads ~20 more modules into
// every hook process.
import { close, constants as C, fstat, open, read } from 'node:fs';

const OPEN_FLAGS = C.O_RDONLY | (C.O_NONBLOCK ?? 0);

/** What a reader of the tail learns: the text, and whether the file started before it (its first line may be cut). */
export interface Tail {
  text: string;
  cut: boolean;
}

/** The last `maxBytes` of a regular file as UTF-8; null when it cannot be opened or is not a regular file. */
export function readTail(file: string, maxBytes: number): Promise<Tail | null> {
  return new Promise((resolveTail) => {
    open(file, OPEN_FLAGS, (openErr, fd) => {
      if (openErr !== null) return resolveTail(null);
      const done = (tail: Tail | null): void => close(fd, () => resolveTail(tail));
      fstat(fd, (statErr, st) => {
        if (statErr !== null || !st.isFile()) return done(null);
        const start = Math.max(0, st.size - maxBytes);
        const buffer = Buffer.alloc(st.size - start);
        let length = 0;
        // A file that shrinks meanwhile just ends early; one that grows is read only up to its size at fstat.
        const next = (): void => {
          if (length === buffer.length) return done({ text: buffer.toString('utf8'), cut: start > 0 });
          read(fd, buffer, length, buffer.length - length, start + length, (readErr, n) => {
            if (readErr !== null) return done(null);
            if (n === 0) return done({ text: buffer.subarray(0, length).toString('utf8'), cut: start > 0 });
            length += n;
            next();
          });
        };
        next();
      });
    });
  });
}

/**
 * The JSON objects of a JSON Lines file's last `maxBytes` (a transcript's end): the first line is
 * dropped when the read cut it, and a line that does not parse (one still being written) is skipped.
 * Null: no such regular file, or unreadable.
 */
export async function readJsonObjectsAtEnd(file: string, maxBytes: number): Promise<Record<string, unknown>[] | null> {
  const tail = await readTail(file, maxBytes);
  if (tail === null) return null;
  const lines = tail.text.split('\n');
  if (tail.cut) lines.shift();
  const objects: Record<string, unknown>[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) objects.push(entry as Record<string, unknown>);
  }
  return objects;
}
