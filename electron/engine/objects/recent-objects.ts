// Objects read or written lately, by id: an id names its content (and type),
// so an entry is never stale. The next snapshot reads the trees the last one
// wrote; a diff's line counts, its hidden-change check and the file view
// read the same few blobs in turn. Each read again was an open, a read and
// an inflate (or a pipe round trip to git).
const recent = new Map<string, { type: string; data: Buffer }>();
let recentBytes = 0;
const MAX_BYTES = 16 * 1024 * 1024;
const MAX_OBJECT = 1024 * 1024;

export function rememberObject(oid: string, type: string, data: Buffer): void {
  if (data.length > MAX_OBJECT || recent.has(oid)) return;
  recent.set(oid, { type, data });
  recentBytes += data.length;
  for (const [old, entry] of recent) {
    if (recentBytes <= MAX_BYTES) break;
    recent.delete(old);
    recentBytes -= entry.data.length;
  }
}

/** The object's content if it was read or written lately (and is of this type). */
export function recentObject(oid: string, type: string): Buffer | undefined {
  const entry = recent.get(oid);
  return entry?.type === type ? entry.data : undefined;
}
