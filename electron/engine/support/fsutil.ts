// Small file-system helpers the engine shares.
import { randomBytes } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** lstat without following a link; null when the path is gone or cannot be stat'ed. */
export function lstatQuiet(full: string): Stats | null {
  try {
    return lstatSync(full, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** Items handled between two turns of the event loop (forEachInBatches). */
export const SYNC_BATCH = 512;

/**
 * Runs a synchronous fn over many items, yielding to the event loop after each
 * batch. For stats and small reads: through the thread pool each one costs the
 * main thread ~10x more (~45 µs), synchronously a few, and a batch blocks the
 * event loop only briefly.
 */
export async function forEachInBatches<T>(items: readonly T[], fn: (item: T, index: number) => void, batch = SYNC_BATCH): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % batch === 0) await new Promise<void>((resolveTurn) => setImmediate(resolveTurn));
    fn(items[i] as T, i);
  }
}

/** Runs fn over items with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Sum of file sizes under dir (not following links). */
export async function dirSize(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await dirSize(full);
    else if (entry.isFile()) total += (await fs.lstat(full).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

export async function tempFile(dir: string, prefix: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  return path.join(dir, `${prefix}-${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}`);
}

/** Whether `child` is `parent` or inside it (both absolute). */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
