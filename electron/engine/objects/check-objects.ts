// Reads objects of the store for `chronoscope check` and proves each one: a
// loose object is inflated and its SHA-1 (header and content) compared with
// its id; a packed one is read as the bytes between its offset and the next
// record, their CRC-32 compared with the one the .idx v2 recorded, inflated
// (a delta applied to its base, for packs git's gc wrote) and hashed the same
// way. Each pack is also checked whole once (checkPacks): its trailer SHA-1
// over every byte before it, the index's copy of that checksum and the
// index's own, the object count in its header.
//
// Unlike loose-read.ts and pack-read.ts, which trust what they read (as git
// does when reading), nothing here is taken on trust. Reads are synchronous:
// objects are small and in the page cache, and a check reads them one after
// another (check.ts yields to the event loop between them when asked to).
// Objects never change once named and the store writes objects before refs,
// so no lock is needed; a pack that vanishes meanwhile (merged, or gc) is
// noticed and the packs are listed again before an object is called missing.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { promisify } from 'node:util';
import { crc32, inflate, inflateSync } from 'node:zlib';
import { Inflater } from './inflate-reuse.js';
import { crcAt, findId, IDS_AT, packIndexNames, parsePackIdx, type PackIdx } from './pack-index.js';
import { parseEntryHeader } from './pack-entry.js';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

export type Proven = { ok: true; type: ObjectType; data: Buffer } | { ok: false; missing: boolean; why: string };

/** A whole pack that does not check out (its objects may still be sound: their CRCs and hashes say). */
export interface PackProblem {
  pack: string;
  problem: string;
}

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;
/** git's own limit on a delta chain is 50 by default; a longer one here is a loop in damaged data. */
const MAX_DEPTH = 10_000;
/** Delta bases kept inflated (bytes): a chain's bases are met again by its neighbours. */
const BASE_CACHE_BYTES = 64 * 1024 * 1024;
const CHUNK = 8 * 1024 * 1024;
/** What a window read takes in (readInOrder): from this, doubling while reads stay dense. */
const WINDOW_MIN = 32 * 1024;
const WINDOW_MAX = 2 * 1024 * 1024;
/** Packed records from this size on are inflated and hashed on the thread pool (proveAsync). */
export const ASYNC_MIN = 64 * 1024;
const inflateAsync = promisify(inflate);

interface Pack {
  name: string;
  file: string;
  fd: number;
  size: number;
  idx: PackIdx;
  /** Whole-pack check done (checkPacks), and its problem if any. */
  checked: boolean;
  /** Offsets in ascending order and the index position of each (made on first use). */
  order: { offsets: Float64Array; positions: Uint32Array } | null;
  /** A number of its own for this opening, so a record's key in the base cache is one number. */
  serial: number;
}

class Damaged extends Error {}
const CRC_FAILED = 'fails its CRC-32 (its bytes in the pack changed)';

function offsetOf(idx: PackIdx, i: number): number {
  const small = idx.bytes.readUInt32BE(IDS_AT + idx.count * 24 + i * 4);
  if (!(small & 0x80000000)) return small;
  // The 64-bit table (a pack past 2 GiB) follows the 31-bit one.
  const at = IDS_AT + idx.count * 28 + (small & 0x7fffffff) * 8;
  if (at + 8 > idx.bytes.length - 40) throw new Damaged('its index points past its 64-bit offset table');
  return Number(idx.bytes.readBigUInt64BE(at));
}

function typeHeader(type: ObjectType, size: number): Buffer {
  return Buffer.from(`${type} ${size}\0`, 'latin1');
}

/** Applies a git delta to its base (the copy/insert format of pack deltas). */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= delta.length) throw new Damaged('a delta ends early');
      byte = delta[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  if (varint() !== base.length) throw new Damaged("a delta's base has the wrong size");
  const size = varint();
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) offset += delta[at++]! * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (0x10 << b)) length += delta[at++]! * 2 ** (8 * b);
      if (length === 0) length = 0x10000;
      if (offset + length > base.length || o + length > size) throw new Damaged('a delta copies past its base');
      // Short runs byte by byte: a tree's deltas copy many, and Buffer.copy's call costs more than they do.
      if (length <= 64) for (let k = 0; k < length; k++) out[o + k] = base[offset + k]!;
      else base.copy(out, o, offset, offset + length);
      o += length;
    } else if (op > 0) {
      if (at + op > delta.length || o + op > size) throw new Damaged('a delta inserts past its end');
      for (let k = 0; k < op; k++) out[o + k] = delta[at + k]!;
      at += op;
      o += op;
    } else {
      throw new Damaged('a delta holds a reserved instruction');
    }
  }
  if (o !== size) throw new Damaged('a delta builds fewer bytes than it says');
  return out;
}

/** Proves objects of one store; close() when done (it holds the packs open). */
export class ObjectProver {
  private packs: Pack[] = [];
  private packNames = '';
  /** One reused buffer: the window records are read through (readInOrder), and the pack checks' chunks. */
  private readonly window: { buf: Buffer; pack: Pack | null; start: number; end: number } = { buf: Buffer.allocUnsafe(CHUNK), pack: null, start: 0, end: 0 };
  private inOrder = false;
  private hashWorker: Worker | null = null;
  private windowSize = WINDOW_MIN;
  private readonly located = new Map<string, { pack: Pack; i: number }>();
  private readonly inflater = new Inflater();
  /** Packs whose index could not be read (their objects are looked for elsewhere, and missing if nowhere). */
  private unreadable: PackProblem[] = [];
  /** Inflated objects by pack serial × 2^40 + offset, oldest first (an LRU of BASE_CACHE_BYTES). */
  private readonly bases = new Map<number, { type: ObjectType; data: Buffer }>();
  private baseBytes = 0;
  /** How many objects were proven (each distinct one once, by the caller's memo). */
  proven = 0;

  constructor(readonly gitDir: string) {
    this.listPacks();
  }

  close(): void {
    void this.hashWorker?.terminate();
    for (const p of this.packs) closeQuiet(p.fd);
    this.packs = [];
    this.bases.clear();
  }

  /**
   * Checks every pack whole, once: header, object count, the trailer SHA-1
   * over the pack, the index's copy of it and the index's own checksum. A
   * pack small enough is kept in memory meanwhile, for its records. `pause`
   * is awaited between chunks (the background check yields there).
   */
  async checkPacks(pause: () => Promise<void>): Promise<PackProblem[]> {
    const problems = [...this.unreadable];
    for (const pack of this.packs) {
      if (pack.checked) continue;
      pack.checked = true;
      const problem = await checkOnePack(pack.fd, pack.size, pack.idx, this.window.buf, pause);
      this.window.pack = null; // the buffer was borrowed
      if (problem) problems.push({ pack: pack.name, problem });
    }
    return problems;
  }
  /**
   * checkPacks with the hashing on a second thread, for a check in the
   * foreground: the walk of the objects goes on meanwhile (a pack's SHA-1 is
   * ~10% of a check). Null when no worker thread can start: call checkPacks.
   * A pack the thread cannot hash as the prover holds it (replaced under its
   * name meanwhile, unreadable) is hashed here when the answer comes.
   */
  checkPacksAside(): Promise<PackProblem[]> | null {
    const todo = this.packs.filter((p) => !p.checked);
    let worker: Worker;
    try {
      worker = new Worker(HASH_WORKER, { eval: true, workerData: todo.map((p) => ({ file: p.file, size: p.size, ino: fstatSync(p.fd).ino })) });
    } catch {
      return null;
    }
    this.hashWorker = worker;
    const problems = [...this.unreadable];
    const heads = todo.map((pack) => {
      pack.checked = true;
      return packHeadProblem(pack.fd, pack.size, pack.idx);
    });
    return new Promise<({ digest: string; trailer: string } | null)[] | null>((resolve) => {
      worker.once('message', resolve);
      worker.once('error', () => resolve(null));
      worker.once('exit', () => resolve(null));
    }).then(async (answers) => {
      void worker.terminate();
      for (let k = 0; k < todo.length; k++) {
        const pack = todo[k]!;
        const answer = answers?.[k];
        const problem = heads[k] ?? (answer ? trailerProblem(Buffer.from(answer.digest, 'hex'), Buffer.from(answer.trailer, 'hex'), pack.idx) : await checkOnePack(pack.fd, pack.size, pack.idx, Buffer.allocUnsafe(CHUNK), async () => undefined));
        if (problem) problems.push({ pack: pack.name, problem });
      }
      return problems;
    });
  }


  /**
   * From now on records are read through a window of the pack: call when
   * reading many in pack order (a record per read costs a system call each).
   */
  readInOrder(): void {
    this.inOrder = true;
  }


  /** Lists the pack folder again; keeps packs already open. Returns whether the listing changed. */
  private listPacks(): boolean {
    const dir = path.join(this.gitDir, 'objects', 'pack');
    const names = packIndexNames(dir);
    const key = names.join('\n');
    if (key === this.packNames) return false;
    this.packNames = key;
    const open = new Map(this.packs.map((p) => [p.name, p]));
    const next: Pack[] = [];
    for (const name of names) {
      const known = open.get(name);
      if (known) {
        open.delete(name);
        next.push(known);
        continue;
      }
      const opened = openPack(dir, name);
      if (typeof opened === 'string') {
        if (!this.unreadable.some((u) => u.pack === name)) this.unreadable.push({ pack: name.replace(/\.idx$/, '.pack'), problem: opened });
      } else if (opened) next.push(opened);
    }
    for (const gone of open.values()) closeQuiet(gone.fd);
    this.packs = next;
    this.bases.clear();
    this.baseBytes = 0;
    return true;
  }

  /**
   * Proves one object: present, readable, and hashing to its id.
   * `transient`: its content may be a view the next call reuses (a blob, hashed and dropped).
   */
  prove(oid: string, transient = false): Proven {
    this.proven++;
    let first = this.proveOnce(oid, transient);
    // Not found, or found damaged: a gc or a join of packs may have moved it meanwhile.
    if (!first.ok && this.listPacks()) first = this.proveOnce(oid, transient);
    return first;
  }

  private proveOnce(oid: string, transient: boolean): Proven {
    const id = Buffer.from(oid, 'hex');
    const why: string[] = [];
    // The copy placeOf found first; any other copies after it.
    const first = this.locate(oid, id);
    const order = first ? [first.pack, ...this.packs.filter((p) => p !== first.pack)] : [];
    for (const pack of order) {
      const i = pack === first?.pack ? first.i : findId(pack.idx, id);
      if (i < 0) continue;
      try {
        const { type, data } = this.readPacked(pack, i, 0, undefined, transient);
        if (hashOf(type, data).equals(id)) return { ok: true, type, data };
        why.push(`its copy in ${pack.name} does not hash to its id`);
      } catch (err) {
        why.push(`its copy in ${pack.name} ${describe(err)}`);
      }
    }
    const loose = this.readLoose(oid, id);
    if (loose.ok || why.length === 0) return loose;
    if (!loose.missing) why.push(loose.why);
    return { ok: false, missing: false, why: why.join('; ') };
  }

  private readLoose(oid: string, id: Buffer): Proven {
    let raw: Buffer;
    try {
      raw = readFileSync(path.join(this.gitDir, 'objects', oid.slice(0, 2), oid.slice(2)));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? { ok: false, missing: true, why: 'it is missing from the store' } : { ok: false, missing: false, why: `its file cannot be read (${code ?? 'error'})` };
    }
    if (raw.length === 0) return { ok: false, missing: false, why: 'its loose file is empty' };
    let inflated: Buffer;
    try {
      inflated = inflateSync(raw);
    } catch {
      return { ok: false, missing: false, why: 'its loose file does not inflate' };
    }
    const nul = inflated.indexOf(0);
    const m = nul < 0 ? null : /^(blob|tree|commit|tag) (\d+)$/.exec(inflated.toString('latin1', 0, nul));
    if (!m || Number(m[2]) !== inflated.length - nul - 1) return { ok: false, missing: false, why: 'its loose file has no valid header' };
    if (!createHash('sha1').update(inflated).digest().equals(id)) return { ok: false, missing: false, why: 'its loose file does not hash to its id' };
    return { ok: true, type: m[1] as ObjectType, data: inflated.subarray(nul + 1) };
  }

  private orderOf(pack: Pack): NonNullable<Pack['order']> {
    if (pack.order) return pack.order;
    const n = pack.idx.count;
    const raw = new Float64Array(n);
    for (let i = 0; i < n; i++) raw[i] = offsetOf(pack.idx, i);
    const positions = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => raw[a]! - raw[b]!);
    const offsets = Float64Array.from(positions, (p) => raw[p]!);
    pack.order = { offsets, positions };
    return pack.order;
  }

  /**
   * The bytes of the record at `offset`, its header (type code, size, where
   * the data starts) and whether they match the CRC-32 the index recorded. A
   * mismatch alone does not make the object damaged: the index's CRC table
   * may be what changed (the index's own checksum says so, as a pack problem),
   * and the object's SHA-1 is the proof; it only names the cause when the
   * bytes then fail to read.
   */
  private record(pack: Pack, offset: number, aside = false): { record: Buffer; code: number; size: number; at: number; crcOk: boolean } {
    const { offsets, positions } = this.orderOf(pack);
    // Its place in pack order: the next record's offset is where it ends.
    let lo = 0;
    let hi = offsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (offsets[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    if (offsets[lo] !== offset) throw new Damaged('points at a place in the pack where no object starts');
    const position = positions[lo]!;
    const end = lo + 1 < offsets.length ? offsets[lo + 1]! : pack.size - 20;
    if (!(end > offset) || end > pack.size - 20) throw new Damaged('lies outside the pack');
    // Through the window when reading in pack order (a view: used before the next read), else a read of its own.
    const w = this.window;
    let record: Buffer;
    // A big record is read into a buffer of its own (proveAsync hands it to the thread pool, and a copy out of the window cost more than the read).
    const big = end - offset >= ASYNC_MIN;
    if (!big && w.pack === pack && offset >= w.start && end <= w.end) record = w.buf.subarray(offset - w.start, end - w.start);
    // A delta's base lies behind: read on its own (`aside`), so the window stays where the walk goes on.
    else if (!big && this.inOrder && !aside) {
      // The window grows while reads run on from where it ended (dense: the blobs) and shrinks after a jump (sparse: a level of trees).
      this.windowSize = w.pack === pack && offset >= w.start && offset <= w.end + 4096 ? Math.min(this.windowSize * 2, WINDOW_MAX) : WINDOW_MIN;
      w.pack = null;
      const got = readSync(pack.fd, w.buf, 0, Math.min(Math.max(this.windowSize, end - offset), pack.size - offset), offset);
      if (got < end - offset) throw new Damaged('is cut short (the pack is truncated)');
      Object.assign(w, { pack, start: offset, end: offset + got });
      record = w.buf.subarray(0, end - offset);
    } else {
      record = Buffer.allocUnsafe(end - offset);
      if (readSync(pack.fd, record, 0, record.length, offset) !== record.length) throw new Damaged('is cut short (the pack is truncated)');
    }
    const crcOk = crc32(record) === crcAt(pack.idx, position);
    const header = parseEntryHeader(record);
    if (header === null) throw new Damaged(crcOk ? 'has a broken header' : CRC_FAILED);
    return { record, ...header, crcOk };
  }

  /** Where an object sits, to read many in pack order: pack number × 2^40 + offset; Infinity when not packed. Remembered for the read that follows. */
  placeOf(oid: string): number {
    const id = Buffer.from(oid, 'hex');
    for (let p = 0; p < this.packs.length; p++) {
      const pack = this.packs[p]!;
      const i = findId(pack.idx, id);
      if (i < 0) continue;
      this.located.set(oid, { pack, i });
      return p * 2 ** 40 + offsetOf(pack.idx, i);
    }
    return Infinity;
  }

  /** The pack and index position of an object (placeOf's answer, used once), or of its first copy found. */
  private locate(oid: string, id: Buffer): { pack: Pack; i: number } | null {
    const known = this.located.get(oid);
    if (known) {
      this.located.delete(oid);
      if (this.packs.includes(known.pack)) return known;
    }
    for (const pack of this.packs) {
      const i = findId(pack.idx, id);
      if (i >= 0) return { pack, i };
    }
    return null;
  }

  /** Whether the object is packed in a record of ASYNC_MIN bytes or more (worth proving on the thread pool). */
  isBig(oid: string): boolean {
    const known = this.located.get(oid);
    const id = known ? null : Buffer.from(oid, 'hex');
    for (const pack of known ? [known.pack] : this.packs) {
      const i = known ? known.i : findId(pack.idx, id!);
      if (i < 0) continue;
      const { offsets } = this.orderOf(pack);
      const offset = offsetOf(pack.idx, i);
      let lo = 0;
      let hi = offsets.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (offsets[mid]! <= offset) lo = mid + 1;
        else hi = mid;
      }
      const end = lo < offsets.length ? offsets[lo]! : pack.size - 20;
      return end - offset >= ASYNC_MIN;
    }
    return false;
  }

  /**
   * prove(), with a big plain packed object inflated and hashed on the thread
   * pool, so the main thread goes on with others meanwhile. Anything else,
   * or anything amiss, goes the careful way (prove), which says why.
   */
  async proveAsync(oid: string): Promise<Proven> {
    const id = Buffer.from(oid, 'hex');
    const where = this.locate(oid, id);
    if (where) {
      try {
        const { record, code, size, at, crcOk } = this.record(where.pack, offsetOf(where.pack.idx, where.i));
        const type = TYPES[code];
        if (type && crcOk && record.length >= ASYNC_MIN) {
          // A copy: the window it may be a view of moves on while the thread pool inflates it.
          // record() read it into a buffer of its own (not a view of the window, which moves on meanwhile).
          const data = await inflateAsync(record.subarray(at), { chunkSize: chunkFor(size) });
          if (data.length === size && hashOf(type, data).equals(id)) {
            this.proven++;
            return { ok: true, type, data };
          }
        }
      } catch {
        /* said by prove() below */
      }
    }
    return this.prove(oid);
  }

  /** The record at index position i (or at `offset`, a delta's base): CRC-checked, inflated, deltas applied. */
  private readPacked(pack: Pack, i: number, depth: number, atOffset?: number, transient = false): { type: ObjectType; data: Buffer } {
    if (depth > MAX_DEPTH) throw new Damaged('has a delta chain that never ends');
    const offset = atOffset ?? offsetOf(pack.idx, i);
    const key = pack.serial * 2 ** 40 + offset;
    const cached = this.bases.get(key);
    if (cached) return cached;
    const read = this.record(pack, offset, depth > 0);
    try {
      return this.readRecord(pack, offset, key, read, depth, transient);
    } catch (err) {
      if (read.crcOk) throw err;
      // The record's end is where the index says the next one starts: a
      // damaged index (one offset changed) cuts a sound neighbour short. Read
      // on as git does, to where its zlib stream ends: if it then builds an
      // object that hashes to its id, it was sound; else the pack changed here.
      const streamed = this.streamedRecord(pack, offset, read.size);
      if (streamed) {
        try {
          return this.readRecord(pack, offset, key, streamed, depth, transient);
        } catch {
          /* damaged after all: said below */
        }
      }
      throw new Damaged(CRC_FAILED);
    }
  }

  /**
   * The record at `offset` read without trusting where the next one starts:
   * as many bytes as its header, a delta's base reference and the deflated
   * data can take at most (deflate adds 5 bytes a 16 KB block), up to the
   * trailer. Null when even its header cannot be read.
   */
  private streamedRecord(pack: Pack, offset: number, size: number): { record: Buffer; code: number; size: number; at: number } | null {
    const most = 32 + 20 + size + 5 * (Math.ceil(size / 16_383) + 1) + 16;
    const length = Math.min(most, pack.size - 20 - offset);
    if (length <= 0) return null;
    const record = Buffer.allocUnsafe(length);
    if (readSync(pack.fd, record, 0, length, offset) !== length) return null;
    const header = parseEntryHeader(record);
    return header && header.size === size ? { record, ...header } : null;
  }

  private readRecord(pack: Pack, offset: number, key: number, read: { record: Buffer; code: number; size: number; at: number }, depth: number, transient: boolean): { type: ObjectType; data: Buffer } {
    const { record, code, size } = read;
    let at = read.at;
    let byte: number;
    let result: { type: ObjectType; data: Buffer };
    const plain = TYPES[code];
    if (plain) {
      result = { type: plain, data: this.inflateExact(record.subarray(at), size, transient && depth === 0) };
    } else if (code === OFS_DELTA) {
      byte = record[at++]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        byte = record[at++]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      if (back <= 0 || back > offset) throw new Damaged("names a delta base outside the pack");
      // Inflated before the base is read: `record` may be a view of the read
      // window, which reading the base moves (and overwrites).
      const delta = this.inflateExact(record.subarray(at), size);
      const base = this.readPacked(pack, -1, depth + 1, offset - back);
      result = { type: base.type, data: applyDelta(base.data, delta) };
    } else if (code === REF_DELTA) {
      const baseId = record.toString('hex', at, at + 20);
      const delta = this.inflateExact(record.subarray(at + 20), size); // before the base moves the window, as above
      const base = this.prove(baseId);
      if (!base.ok) throw new Damaged(`is a delta on ${baseId.slice(0, 12)}, which ${base.why}`);
      result = { type: base.type, data: applyDelta(base.data, delta) };
    } else {
      throw new Damaged(`has an unknown type (${code})`);
    }
    // Delta bases are kept (a chain's neighbours need them), and so is every
    // object built from a delta (a buffer of its own, and in git's packs most
    // often the base of the next one in the chain); plain records are read once.
    if (depth > 0 || !plain) this.keepBase(key, result);
    return result;
  }

  private inflateExact(deflated: Buffer, size: number, transient = false): Buffer {
    const data = this.inflater.inflate(deflated, size, transient);
    if (!data) throw new Damaged('does not inflate to its size');
    return data;
  }

  private keepBase(key: number, value: { type: ObjectType; data: Buffer }): void {
    if (value.data.length > BASE_CACHE_BYTES / 4) return;
    while (this.baseBytes + value.data.length > BASE_CACHE_BYTES && this.bases.size > 0) {
      const [oldest, old] = this.bases.entries().next().value as [number, { data: Buffer }];
      this.bases.delete(oldest);
      this.baseBytes -= old.data.length;
    }
    this.bases.set(key, value);
    this.baseBytes += value.data.length;
  }
}

/** An output chunk that holds the whole object: one buffer, no joining of 16 KB pieces (capped: a damaged header may claim anything). */
function chunkFor(size: number): number {
  return Math.min(Math.max(64, size + 64), 256 * 1024 * 1024);
}


function hashOf(type: ObjectType, data: Buffer): Buffer {
  return createHash('sha1').update(typeHeader(type, data.length)).update(data).digest();
}

function describe(err: unknown): string {
  return err instanceof Damaged ? err.message : `cannot be read (${err instanceof Error ? err.message : String(err)})`;
}

function closeQuiet(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
}

let nextSerial = 0;

/** The pack and its index; null when gone meanwhile; a problem when its index cannot be read. */
function openPack(dir: string, name: string): Pack | string | null {
  const file = path.join(dir, name.replace(/\.idx$/, '.pack'));
  let fd: number | null = null;
  try {
    const idx = parsePackIdx(readFileSync(path.join(dir, name)));
    if (!idx) return 'its index is not a whole version-2 index';
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    return { name: path.basename(file), file, fd, size, idx, order: null, checked: false, serial: nextSerial++ };
  } catch (err) {
    if (fd !== null) closeQuiet(fd);
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? null : `cannot be read (${code ?? 'error'})`; // gone meanwhile (merged, gc): not a problem
  }
}

/** What is wrong with a pack's index, header or object count (cheap: read before its bytes are hashed); null when nothing. */
function packHeadProblem(fd: number, size: number, idx: PackIdx): string | null {
  const idxBytes = idx.bytes;
  if (!createHash('sha1').update(idxBytes.subarray(0, idxBytes.length - 20)).digest().equals(idxBytes.subarray(idxBytes.length - 20))) return 'its index fails its own checksum';
  if (size < 32) return 'is too short to be a pack';
  const head = Buffer.alloc(12);
  readSync(fd, head, 0, 12, 0);
  if (head.toString('latin1', 0, 4) !== 'PACK' || ![2, 3].includes(head.readUInt32BE(4))) return 'has no pack header';
  if (head.readUInt32BE(8) !== idx.count) return `holds ${head.readUInt32BE(8)} objects but its index lists ${idx.count}`;
  return null;
}

/** The trailer check: the SHA-1 of every byte before it, the trailer, and the index's copy of it. */
function trailerProblem(digest: Buffer, trailer: Buffer, idx: PackIdx): string | null {
  if (!digest.equals(trailer)) return 'fails its trailer checksum (its bytes changed)';
  if (!idx.bytes.subarray(idx.bytes.length - 40, idx.bytes.length - 20).equals(trailer)) return 'does not match the checksum its index recorded';
  return null;
}

/** The whole-pack checks of one pack, read in chunks through `chunk` with `pause` between. */
async function checkOnePack(fd: number, size: number, idx: PackIdx, chunk: Buffer, pause: () => Promise<void>): Promise<string | null> {
  const head = packHeadProblem(fd, size, idx);
  if (head) return head;
  const hash = createHash('sha1');
  for (let at = 0; at < size - 20; ) {
    const got = readSync(fd, chunk, 0, Math.min(chunk.length, size - 20 - at), at);
    if (got <= 0) return 'is cut short';
    hash.update(chunk.subarray(0, got));
    at += got;
    await pause();
  }
  const trailer = Buffer.alloc(20);
  readSync(fd, trailer, 0, 20, size - 20);
  return trailerProblem(hash.digest(), trailer, idx);
}

/**
 * The hashing of whole packs on a thread of its own (checkPacksAside): each
 * pack opened by name, checked to be the same file (inode) the prover holds,
 * hashed up to its trailer. Inline source, so there is no file to find.
 */
const HASH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const crypto = require('node:crypto');
const buf = Buffer.allocUnsafe(${CHUNK});
const answers = workerData.map(({ file, size, ino }) => {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    if (fs.fstatSync(fd).ino !== ino) return null;
    const hash = crypto.createHash('sha1');
    for (let at = 0; at < size - 20; ) {
      const got = fs.readSync(fd, buf, 0, Math.min(buf.length, size - 20 - at), at);
      if (got <= 0) return null;
      hash.update(buf.subarray(0, got));
      at += got;
    }
    const trailer = Buffer.alloc(20);
    fs.readSync(fd, trailer, 0, 20, size - 20);
    return { digest: hash.digest('hex'), trailer: trailer.toString('hex') };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
});
parentPort.postMessage(answers);
`;
