import type { TokenBucketParams } from '@sluice/flowcontrol';
import type { BucketSnapshot } from './bucket-table.js';

/**
 * Counter operations between members over `dist_cache.bind_addr`: batches of
 * operations in length-prefixed JSON frames, answered in order.
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
const MAX_KEY = 512;

/** Parse and check a request frame; undefined when malformed. */
export function parseRequest(bytes: Buffer): RequestFrame | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(raw) || !isCount(raw.id) || !Array.isArray(raw.ops) || raw.ops.length > MAX_BATCH) return undefined;
  const ops: Op[] = [];
  for (const x of raw.ops) {
    const op = parseOp(x);
    if (op === undefined) return undefined;
    ops.push(op);
  }
  return { id: raw.id, ops };
}

function parseOp(x: unknown): Op | undefined {
  if (!isObject(x)) return undefined;
  switch (x.o) {
    case 'ping':
      return { o: 'ping' };
    case 'read':
    case 'pull':
      return isKey(x.k) ? { o: x.o, k: x.k } : undefined;
    case 'take':
    case 'give':
    case 'consume': {
      const p = parseParams(x.p);
      return isKey(x.k) && isAmount(x.n) && p ? { o: x.o, k: x.k, n: x.n, p } : undefined;
    }
    case 'replicate':
    case 'handover': {
      const p = parseParams(x.p);
      const s = parseSnapshot(x.s);
      return isKey(x.k) && p && s ? { o: x.o, k: x.k, s, p } : undefined;
    }
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

function parseSnapshot(x: unknown): BucketSnapshot | undefined {
  if (!isObject(x) || !isAmount(x.available) || !isAmount(x.fillAgoMs)) return undefined;
  return { available: x.available, fillAgoMs: x.fillAgoMs };
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

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}
