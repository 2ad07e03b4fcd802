// Reading a file that someone else controls (a workspace's .git/HEAD, its
// package.json, a reflog, the store's config.json): only a regular file, and
// never more than a bound. Opened non-blocking, so a FIFO in its place cannot
// hang the read, then checked with fstat on the open descriptor (no window for
// a swap between check and read); /dev/zero or a huge file cannot fill memory.
import { closeSync, constants as C, fstatSync, openSync, readSync } from 'node:fs';
import fs from 'node:fs/promises';

const OPEN_FLAGS = C.O_RDONLY | (C.O_NONBLOCK ?? 0);

export class UnreadableFile extends Error {
  constructor(
    readonly file: string,
    readonly why: 'not_regular' | 'too_large',
    limit: number,
  ) {
    super(why === 'not_regular' ? `${file} is not a regular file` : `${file} is larger than ${limit} bytes`);
  }
}

/** The file's bytes; throws UnreadableFile for a non-regular or oversized file, the fs error (ENOENT…) otherwise. */
export async function readBounded(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await fs.open(file, OPEN_FLAGS);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new UnreadableFile(file, 'not_regular', maxBytes);
    if (st.size > maxBytes) throw new UnreadableFile(file, 'too_large', maxBytes);
    // Read one byte past the bound: a file that grows after fstat is still caught.
    const buffer = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) {
        if (length > maxBytes) throw new UnreadableFile(file, 'too_large', maxBytes);
        break;
      }
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

export async function readTextBounded(file: string, maxBytes: number): Promise<string> {
  return (await readBounded(file, maxBytes)).toString('utf8');
}

/** The synchronous form, for the hook's classifier; null on any failure. */
export function readTextBoundedSync(file: string, maxBytes: number): string | null {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    const buffer = Buffer.alloc(st.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) break;
      length += n;
    }
    return length > maxBytes ? null : buffer.subarray(0, length).toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
