// A pack entry's header, as git's pack format lays it out: the type code in
// bits 4-6 of the first byte, the size in its low 4 bits and then 7 bits a
// byte while the high bit is set. One parser for the reader (pack-read.ts) and
// the check (check-objects.ts); pack-write.ts writes it.

export interface EntryHeader {
  /** 1 commit, 2 tree, 3 blob, 4 tag, 6 offset delta, 7 ref delta. */
  code: number;
  /** The object's (or the delta's) inflated size. */
  size: number;
  /** Where the header ends in `record`. */
  at: number;
}

/** The header at the start of `record`; null when it runs past the bytes given. */
export function parseEntryHeader(record: Uint8Array): EntryHeader | null {
  let byte = record[0];
  if (byte === undefined) return null;
  const code = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let shift = 4;
  let at = 1;
  while (byte & 0x80) {
    if (at >= record.length) return null;
    byte = record[at++]!;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  return { code, size, at };
}
