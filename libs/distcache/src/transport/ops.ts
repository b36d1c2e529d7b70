import type { TokenBucketParams } from '@sluice/tokenbucket';
import type { BucketSnapshot } from '../store/bucket-table.js';
import { FrameReader, type FrameBuilder } from './frame.js';

/**
 * Counter operations between members over `dist_cache.bind_addr`: batches of
 * operations in length-prefixed binary frames (below), each answered by one
 * frame with the results in the order of the operations.
 * - take: take `n` tokens from the bucket `k` (on its owner);
 * - give: give `n` tokens back;
 * - read: the bucket's state;
 * - consume: lazy sync, subtract `n` consumed elsewhere (floored at 0) and answer what is left;
 * - replicate: the owner's copy to a replica;
 * - handover: a previous owner's state to the new owner;
 * - pull: the new owner asks the previous one for the state (and it stops owning it);
 * - ping: the port answers (a member joins the ring only then).
 */
export type Op =
  | { readonly o: 'take'; readonly k: string; readonly n: number; readonly p: TokenBucketParams }
  | { readonly o: 'give'; readonly k: string; readonly n: number; readonly p: TokenBucketParams }
  | { readonly o: 'read'; readonly k: string }
  | { readonly o: 'consume'; readonly k: string; readonly n: number; readonly p: TokenBucketParams }
  | { readonly o: 'replicate'; readonly k: string; readonly s: BucketSnapshot; readonly p: TokenBucketParams }
  | { readonly o: 'handover'; readonly k: string; readonly s: BucketSnapshot; readonly p: TokenBucketParams }
  | { readonly o: 'pull'; readonly k: string }
  | { readonly o: 'ping' };

export type OpResult =
  | { readonly ok: boolean; readonly rem: number; readonly cur: number; readonly wait: number }
  | { readonly s: BucketSnapshot | null; readonly keep?: boolean }
  | { readonly rem: number }
  | { readonly done: true }
  | { readonly err: string };

export interface RequestFrame {
  readonly id: number;
  readonly ops: readonly Op[];
}

export interface ResponseFrame {
  readonly id: number;
  readonly res: readonly OpResult[];
}

/** Operations per batch at most (a bigger frame is refused). */
export const MAX_BATCH = 4096;
/** Longest bucket key, in characters. */
export const MAX_KEY = 512;
/** Version of the operations protocol: the first byte of every frame; a frame of another is refused. */
export const OPS_PROTOCOL_VERSION = 1;

/*
 * The frames (numbers little-endian; f64 = IEEE double; str = u16 byte length then UTF-8):
 *   request:  u8 version, u32 batch id, u16 count, then each operation: u8 code, then
 *             take/give/consume: str key, f64 n, params;  read/pull: str key;
 *             replicate/handover: str key, f64 available, f64 fillAgoMs, params;  ping: nothing.
 *             params: u16 index into the batch's parameter sets; the next new index is followed
 *             by the set itself (f64 capacity, f64 fillAmount, f64 intervalMs, u8 continuousFill),
 *             so a set shared by the batch's operations travels once.
 *   response: u8 version, u32 batch id, u16 count, then each result: u8 tag, then
 *             take: u8 ok, f64 remaining, f64 current, f64 wait;  snapshot: u8 flags (1: a state
 *             follows, 2: keep is present, 4: keep), [f64 available, f64 fillAgoMs];
 *             rem: f64;  done: nothing;  err: str message.
 */
const OP_CODES = { take: 1, give: 2, read: 3, consume: 4, replicate: 5, handover: 6, pull: 7, ping: 8 } as const;
const R_TAKE = 1, R_SNAPSHOT = 2, R_REM = 3, R_DONE = 4, R_ERR = 5;
const MAX_ERR = 1024;

/**
 * One batch of operations being written into a frame: `add` appends an
 * operation as it is called, `finish` completes the frame with its id.
 */
export class RequestEncoder {
  private params = new Map<TokenBucketParams, number>();
  private countAt = -1;
  private idAt = -1;
  count = 0;

  constructor(private readonly out: FrameBuilder) {}

  /** Bytes of the batch so far. */
  get bytes(): number {
    return this.out.frameBytes;
  }

  get open(): boolean {
    return this.countAt >= 0;
  }

  /** Starts a batch in the builder (which may hold earlier frames). */
  begin(): void {
    this.out.begin();
    this.out.u8(OPS_PROTOCOL_VERSION);
    this.idAt = this.out.offset;
    this.out.u32(0);
    this.countAt = this.out.offset;
    this.out.u16(0);
    this.count = 0;
    this.params.clear();
  }

  /** Appends one operation; a RangeError (and nothing appended) when its key cannot travel. */
  add(op: Op): void {
    if (op.o !== 'ping' && !(op.k.length > 0 && op.k.length <= MAX_KEY)) throw new RangeError(`bucket key of ${op.k.length} characters (1 to ${MAX_KEY})`);
    const w = this.out;
    w.u8(OP_CODES[op.o]);
    switch (op.o) {
      case 'take':
      case 'give':
      case 'consume':
        w.str(op.k);
        w.f64(op.n);
        this.paramsRef(op.p);
        break;
      case 'read':
      case 'pull':
        w.str(op.k);
        break;
      case 'replicate':
      case 'handover':
        w.str(op.k);
        w.f64(op.s.available);
        w.f64(op.s.fillAgoMs);
        this.paramsRef(op.p);
        break;
      case 'ping':
        break;
    }
    this.count++;
  }

  /** Completes the frame with the batch's id (the builder then holds it whole). */
  finish(id: number): void {
    this.out.setU32(this.idAt, id);
    this.out.setU16(this.countAt, this.count);
    this.countAt = -1;
    this.out.end();
  }

  private paramsRef(p: TokenBucketParams): void {
    const w = this.out;
    const known = this.params.get(p);
    if (known !== undefined) {
      w.u16(known);
      return;
    }
    const idx = this.params.size;
    this.params.set(p, idx);
    w.u16(idx);
    w.f64(p.capacity);
    w.f64(p.fillAmount);
    w.f64(p.intervalMs);
    w.u8(p.continuousFill ? 1 : 0);
  }
}

/** Appends one response frame: the results of batch `id`, in the order of its operations. */
export function encodeResponse(out: FrameBuilder, id: number, results: readonly OpResult[]): void {
  out.begin();
  out.u8(OPS_PROTOCOL_VERSION);
  out.u32(id);
  out.u16(results.length);
  for (const r of results) {
    if ('ok' in r) {
      out.u8(R_TAKE);
      out.u8(r.ok ? 1 : 0);
      out.f64(r.rem);
      out.f64(r.cur);
      out.f64(r.wait);
    } else if ('s' in r) {
      out.u8(R_SNAPSHOT);
      out.u8((r.s !== null ? 1 : 0) | (r.keep !== undefined ? 2 : 0) | (r.keep === true ? 4 : 0));
      if (r.s !== null) {
        out.f64(r.s.available);
        out.f64(r.s.fillAgoMs);
      }
    } else if ('rem' in r) {
      out.u8(R_REM);
      out.f64(r.rem);
    } else if ('done' in r) {
      out.u8(R_DONE);
    } else {
      out.u8(R_ERR);
      out.str(r.err.length > MAX_ERR ? r.err.slice(0, MAX_ERR) : r.err);
    }
  }
  out.end();
}

/** Parse and check a request frame's payload; undefined when malformed. */
export function parseRequest(bytes: Buffer): RequestFrame | undefined {
  const params: TokenBucketParams[] = [];
  const b = parseBatch(bytes, (r) => readOp(r, params));
  return b === undefined ? undefined : { id: b.id, ops: b.items };
}

/** Parse and check a response frame's payload; undefined when malformed. */
export function parseResponse(bytes: Buffer): ResponseFrame | undefined {
  const b = parseBatch(bytes, readResult);
  return b === undefined ? undefined : { id: b.id, res: b.items };
}

/** A frame's version, id and count, then `count` items read by `item`, and nothing after them; undefined when malformed. */
function parseBatch<T>(bytes: Buffer, item: (r: FrameReader) => T | undefined): { id: number; items: T[] } | undefined {
  try {
    const r = new FrameReader(bytes);
    if (r.u8() !== OPS_PROTOCOL_VERSION) return undefined;
    const id = r.u32();
    const count = r.u16();
    if (count > MAX_BATCH) return undefined;
    const items: T[] = [];
    for (let i = 0; i < count; i++) {
      const x = item(r);
      if (x === undefined) return undefined;
      items.push(x);
    }
    return r.done ? { id, items } : undefined;
  } catch {
    return undefined; // ShortFrameError
  }
}

function readOp(r: FrameReader, params: TokenBucketParams[]): Op | undefined {
  const code = r.u8();
  switch (code) {
    case OP_CODES.ping:
      return { o: 'ping' };
    case OP_CODES.read:
    case OP_CODES.pull: {
      const k = r.str();
      return isKey(k) ? { o: code === OP_CODES.read ? 'read' : 'pull', k } : undefined;
    }
    case OP_CODES.take:
    case OP_CODES.give:
    case OP_CODES.consume: {
      const k = r.str();
      const n = r.f64();
      const p = readParams(r, params);
      if (!isKey(k) || !isAmount(n) || p === undefined) return undefined;
      return { o: code === OP_CODES.take ? 'take' : code === OP_CODES.give ? 'give' : 'consume', k, n, p };
    }
    case OP_CODES.replicate:
    case OP_CODES.handover: {
      const k = r.str();
      const s = { available: r.f64(), fillAgoMs: r.f64() };
      const p = readParams(r, params);
      if (!isKey(k) || !isAmount(s.available) || !isAmount(s.fillAgoMs) || p === undefined) return undefined;
      return { o: code === OP_CODES.replicate ? 'replicate' : 'handover', k, s, p };
    }
    default:
      return undefined;
  }
}

function readParams(r: FrameReader, known: TokenBucketParams[]): TokenBucketParams | undefined {
  const idx = r.u16();
  if (idx < known.length) return known[idx];
  if (idx !== known.length) return undefined;
  const capacity = r.f64(), fillAmount = r.f64(), intervalMs = r.f64(), fill = r.u8();
  const p = parseParams({ capacity, fillAmount, intervalMs, continuousFill: fill === 1 ? true : fill === 0 ? false : undefined });
  if (p !== undefined) known.push(p);
  return p;
}

function readResult(r: FrameReader): OpResult | undefined {
  switch (r.u8()) {
    case R_TAKE: {
      const ok = r.u8();
      if (ok > 1) return undefined;
      return { ok: ok === 1, rem: r.f64(), cur: r.f64(), wait: r.f64() };
    }
    case R_SNAPSHOT: {
      const flags = r.u8();
      if (flags > 7) return undefined;
      const s = (flags & 1) !== 0 ? { available: r.f64(), fillAgoMs: r.f64() } : null;
      return (flags & 2) !== 0 ? { s, keep: (flags & 4) !== 0 } : { s };
    }
    case R_REM:
      return { rem: r.f64() };
    case R_DONE:
      return { done: true };
    case R_ERR:
      return { err: r.str() };
    default:
      return undefined;
  }
}

export function parseParams(x: unknown): TokenBucketParams | undefined {
  if (!isObject(x)) return undefined;
  const { capacity, fillAmount, intervalMs, continuousFill } = x;
  if (!isAmount(capacity) || !isAmount(fillAmount) || typeof intervalMs !== 'number' || !(intervalMs > 0) || !Number.isFinite(intervalMs)) return undefined;
  if (typeof continuousFill !== 'boolean') return undefined;
  return { capacity, fillAmount, intervalMs, continuousFill };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isKey(x: unknown): x is string {
  return typeof x === 'string' && x.length > 0 && x.length <= MAX_KEY;
}

function isAmount(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0;
}
