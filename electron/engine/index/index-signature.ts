// Which content the private index file holds, cheaply: the head file
// (head.ts) remembers it beside the tree the index held, so a scan that finds
// nothing to update can skip write-tree.
import fs from 'node:fs/promises';

/**
 * Identity of the index file's content: its size and trailing checksum (git
 * ends every index it writes with the SHA-1 of what precedes it). Exact, unlike
 * timestamps; null when missing or written without a checksum (index.skipHash).
 */
export async function indexSignature(file: string): Promise<string | null> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, 'r');
    const { size } = await handle.stat();
    if (size < 32) return null;
    const tail = Buffer.alloc(20);
    await handle.read(tail, 0, 20, size - 20);
    return tail.every((b) => b === 0) ? null : `${size}:${tail.toString('hex')}`;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}
