import { embeddedFieldWriter, enumNumbers, fieldTag, varintLength, wireSerializer, writeVarint } from '@sluice/proto';
import type { Duration, LimiterDecision, LimiterDecision_LimiterReason, LimiterDecision_LimiterReason__Output, StatusCode, StatusCode__Output } from '@sluice/proto';
import type { LimiterKind, LimiterResult } from '../check/component.js';
import type { LimiterRecord } from '../check/decision.js';
import { RATE_LIMITER_INFO as RATE_LIMITER_DETAILS, type LimiterDetails } from '../limiters/limiter-details.js';
import { durationOf } from './proto-time.js';

const CHECK = 'aperture.flowcontrol.check.v1';
type Numbers<E> = Extract<E, number>;
const STATUS = enumNumbers<StatusCode__Output, Numbers<StatusCode>>(`${CHECK}.StatusCode`);
const LIMITER_REASON = enumNumbers<LimiterDecision_LimiterReason__Output, Numbers<LimiterDecision_LimiterReason>>(`${CHECK}.LimiterDecision.LimiterReason`);
const STATUS_OF_DENIAL: Readonly<Record<LimiterKind['deniedStatus'], Numbers<StatusCode>>> = {
  403: STATUS.Forbidden, 429: STATUS.TooManyRequests, 503: STATUS.ServiceUnavailable,
};
/** A zero Duration: present, no field written (reads back as 0 s). */
export const ZERO_DURATION: Duration = Object.freeze({}) as Duration;

type Kind = LimiterKind;
const DECISION = `${CHECK}.LimiterDecision`;

/**
 * The fields of a limiter's decision other than its details (the oneof, written last), in
 * wire shape: enums as their numbers from check.proto, defaults undefined.
 */
function headWire(rec: LimiterRecord): LimiterDecision {
  const r = rec.result;
  return {
    policy_name: rec.identity.policy_name,
    policy_hash: rec.identity.policy_hash,
    component_id: rec.identity.component_id,
    dropped: r.accepted ? undefined : true,
    reason: r.keyNotFound === true ? LIMITER_REASON.LIMITER_REASON_KEY_NOT_FOUND : undefined,
    denied_response_status_code: r.accepted ? undefined : STATUS_OF_DENIAL[rec.kind.deniedStatus],
    wait_time: r.waitMs > 0 ? durationOf(r.waitMs) : ZERO_DURATION,
  };
}

const RATE_LIMITER_INFO = `${DECISION}.RateLimiterInfo`;
const TOKENS_INFO = `${DECISION}.TokensInfo`;
/** The tags of a rate limiter's details, read from check.proto. */
const TAG = {
  details: fieldTag(DECISION, 'rate_limiter_info'),
  label: fieldTag(RATE_LIMITER_INFO, 'label'),
  tokens: fieldTag(RATE_LIMITER_INFO, 'tokens_info'),
  remaining: fieldTag(TOKENS_INFO, 'remaining'),
  current: fieldTag(TOKENS_INFO, 'current'),
  consumed: fieldTag(TOKENS_INFO, 'consumed'),
};
/** Wire type of a double: 8 bytes, little-endian. */
const FIXED64 = 1;
if ((TAG.remaining & 7) !== FIXED64 || (TAG.current & 7) !== FIXED64 || (TAG.consumed & 7) !== FIXED64) {
  throw new Error('check.proto: TokensInfo\'s fields are no longer doubles; rateLimiterBytes writes them as doubles');
}
const TOKENS_BODY = varintLength(TAG.remaining) + varintLength(TAG.current) + varintLength(TAG.consumed) + 3 * 8;
/**
 * Where a rate limiter's three counts sit in the last COUNTS.length bytes of its decision as
 * written here (tokens_info is the last field of its details, and its details the last of the
 * decision): the offsets of the values of remaining, current and consumed (doubles).
 */
export const COUNTS = Object.freeze({
  length: TOKENS_BODY,
  remaining: varintLength(TAG.remaining),
  current: varintLength(TAG.remaining) + 8 + varintLength(TAG.current),
  consumed: varintLength(TAG.remaining) + 8 + varintLength(TAG.current) + 8 + varintLength(TAG.consumed),
});

/** A double's eight bytes, little-endian as protobuf writes them (checked below on this machine). */
const DOUBLE = new Float64Array(1);
const DOUBLE_BYTES = new Uint8Array(DOUBLE.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function writeDouble(out: Buffer, at: number, tag: number, v: number): number {
  const after = writeVarint(out, at, tag);
  if (!LITTLE_ENDIAN) {
    out.writeDoubleLE(v, after);
    return after + 8;
  }
  DOUBLE[0] = v;
  for (let i = 0; i < 8; i++) out[after + i] = DOUBLE_BYTES[i];
  return after + 8;
}

/**
 * The bytes of a rate limiter's decision before its three token counts: the kept head, the
 * details' tag and length, the label, and the tag and length of the token counts (tags from
 * check.proto). Of one limiter's decisions these say the same while the head and the label do:
 * they are kept, and a decision is this prefix and its counts (rateLimiterBytes).
 */
function rateLimiterPrefix(head: Buffer, label: string): Buffer {
  const labelLength = Buffer.byteLength(label);
  const body = varintLength(TAG.label) + varintLength(labelLength) + labelLength + varintLength(TAG.tokens) + varintLength(TOKENS_BODY) + TOKENS_BODY;
  const out = Buffer.allocUnsafe(head.length + varintLength(TAG.details) + varintLength(body) + body - TOKENS_BODY);
  head.copy(out, 0);
  let at = writeVarint(out, head.length, TAG.details);
  at = writeVarint(out, at, body);
  at = writeVarint(out, at, TAG.label);
  at = writeVarint(out, at, labelLength);
  at += out.write(label, at, 'utf8');
  at = writeVarint(out, at, TAG.tokens);
  writeVarint(out, at, TOKENS_BODY);
  return out;
}

/** A kept rateLimiterPrefix and the label it ends with. */
interface Prefix {
  label: string;
  bytes: Buffer;
}

/**
 * A rate limiter's decision in one buffer: the prefix (rateLimiterPrefix, `kept` when it ends
 * with the same label, else made and kept there), then the three token counts, the bytes
 * protobufjs writes of them (a test holds the two to the same bytes). protobufjs's writer
 * spends about 0.7 us on such a decision (an object per field written, a buffer for the
 * details and another for the whole); this is one buffer and a copy. Undefined when a field is
 * absent (the general path writes those).
 */
function rateLimiterBytes(head: Buffer, r: LimiterResult, kept: { prefix: Prefix | undefined }): Buffer | undefined {
  const { label, remaining, current, tokens } = r;
  if (label === undefined || remaining === undefined || current === undefined || tokens === undefined) return undefined;
  let prefix = kept.prefix;
  if (prefix === undefined || prefix.label !== label) {
    prefix = { label, bytes: rateLimiterPrefix(head, label) };
    kept.prefix = prefix;
  }
  const start = prefix.bytes.length;
  const out = Buffer.allocUnsafe(start + TOKENS_BODY);
  prefix.bytes.copy(out, 0);
  let at = writeDouble(out, start, TAG.remaining, remaining);
  at = writeDouble(out, at, TAG.current, current);
  writeDouble(out, at, TAG.consumed, tokens);
  return out;
}

/** The bytes of a decision: its head, then its details (`kept` holds what rateLimiterBytes keeps for the head). */
function decisionBytes(kind: Kind, head: Buffer, r: LimiterResult, kept: { prefix: Prefix | undefined }): Buffer {
  if (kind.details === RATE_LIMITER_DETAILS) {
    const fast = rateLimiterBytes(head, r, kept);
    if (fast !== undefined) return fast;
  }
  const details = writerOf(kind.details);
  return details.write(head, details.encode(kind.details.wire(r)));
}

/** The encoder of a details message and the writer of a decision ending with it, made once per LimiterDetails. */
interface DetailsWriter { encode(m: object): Buffer; write(head: Uint8Array, body: Uint8Array): Buffer }
const writers = new Map<LimiterDetails, DetailsWriter>();

function writerOf(details: LimiterDetails): DetailsWriter {
  let w = writers.get(details);
  if (w === undefined) {
    w = { encode: wireSerializer(`${DECISION}.${details.message}`), write: embeddedFieldWriter(DECISION, details.field) };
    writers.set(details, w);
  }
  return w;
}

const encodeHead = wireSerializer<LimiterDecision>(DECISION);
const EMPTY = Buffer.alloc(0);

/** A limiter's previous decision: the encoding of its head (kept while the head says the same), its result and its bytes. */
interface Previous {
  policy_name: string;
  policy_hash: string;
  component_id: string;
  kind: Kind;
  accepted: boolean;
  keyNotFound: boolean | undefined;
  waitMs: number;
  head: Buffer;
  /** The head followed by the start of a rate limiter's details (rateLimiterPrefix), once made. */
  prefix: Prefix | undefined;
  result: LimiterResult;
  bytes: Buffer;
}

/** Each limiter's previous decision (by its identity, which lives as long as the limiter). */
const previous = new WeakMap<LimiterRecord['identity'], Previous>();

function sameResult(a: LimiterResult, b: LimiterResult): boolean {
  return a.accepted === b.accepted && a.waitMs === b.waitMs && a.keyNotFound === b.keyNotFound && a.label === b.label
    && a.remaining === b.remaining && a.current === b.current && a.tokens === b.tokens
    && a.workloadIndex === b.workloadIndex && a.priority === b.priority;
}

/** Stands for "no decision encoded yet" in a Previous made for a new head: equal to no result. */
const NO_RESULT: LimiterResult = Object.freeze({ accepted: undefined as unknown as boolean, waitMs: NaN });

/**
 * The kept state of a limiter's decisions whose head says what `rec`'s does: the one kept
 * while it does, else a new one (its head encoded, no decision encoded yet) kept from now on.
 */
function keptFor(rec: LimiterRecord): Previous {
  const id = rec.identity;
  const r = rec.result;
  const p = previous.get(id);
  if (p !== undefined && p.kind === rec.kind && p.accepted === r.accepted && p.keyNotFound === r.keyNotFound && p.waitMs === r.waitMs
    && p.policy_hash === id.policy_hash && p.policy_name === id.policy_name && p.component_id === id.component_id) {
    return p;
  }
  const next: Previous = {
    policy_name: id.policy_name, policy_hash: id.policy_hash, component_id: id.component_id,
    kind: rec.kind, accepted: r.accepted, keyNotFound: r.keyNotFound, waitMs: r.waitMs, head: encodeHead(headWire(rec)), prefix: undefined,
    result: NO_RESULT, bytes: EMPTY,
  };
  previous.set(id, next);
  return next;
}

/**
 * The bytes of a limiter's decision (a LimiterDecision of check.proto). Of one limiter's
 * decisions, the fields before the details (its identity, dropped, reason, status, wait)
 * mostly say the same call after call: their encoding is kept while they do, and only the
 * details (label and tokens) are encoded for each decision; a decision that says all its
 * previous one said is its bytes again. A policy's new hash (changed in place) is a new head.
 */
export function limiterDecisionBytes(rec: LimiterRecord): Buffer {
  return bytesOf(keptFor(rec), rec);
}

/** The bytes of `rec`'s decision from its kept state `p` (keptFor): the kept bytes when it says the same again. */
function bytesOf(p: Previous, rec: LimiterRecord): Buffer {
  const r = rec.result;
  if (p.result === r || sameResult(p.result, r)) return p.bytes;
  p.result = r;
  p.bytes = decisionBytes(rec.kind, p.head, r, p);
  return p.bytes;
}

/** A rate limiter's result with every count its fast encoding writes (rateLimiterBytes), which ends with them (COUNTS). */
export function hasCounts(r: LimiterResult): boolean {
  return r.label !== undefined && r.remaining !== undefined && r.current !== undefined && r.tokens !== undefined;
}

/**
 * The decisions of one answer between sizing and writing (limiterDecisionsLength, then
 * writeLimiterDecisions): each one's kept state, result, and whether it is written as its
 * kept prefix and three counts (else as its bytes). One set, reused: the two calls are made
 * back to back for one answer, with nothing in between.
 */
const batch: { kept: Previous[]; results: LimiterResult[]; counted: boolean[]; count: number; tag: number } = {
  kept: [], results: [], counted: [], count: 0, tag: 0,
};

/**
 * The length of `records` written as elements of a repeated LimiterDecision field whose
 * element tag is `tag` (each: the tag, the length, the decision); writeLimiterDecisions
 * writes them next, with no buffer per decision: a rate limiter's decision is its kept
 * prefix (rateLimiterPrefix) and its three counts, any other its kept bytes.
 */
export function limiterDecisionsLength(records: readonly LimiterRecord[], tag: number): number {
  const tagLength = varintLength(tag);
  let total = 0;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    const r = rec.result;
    const p = keptFor(rec);
    let length: number;
    const counted = rec.kind.details === RATE_LIMITER_DETAILS && hasCounts(r);
    if (counted) {
      const label = r.label as string;
      if (p.prefix === undefined || p.prefix.label !== label) p.prefix = { label, bytes: rateLimiterPrefix(p.head, label) };
      length = p.prefix.bytes.length + TOKENS_BODY;
    } else {
      length = bytesOf(p, rec).length;
    }
    batch.kept[i] = p;
    batch.results[i] = r;
    batch.counted[i] = counted;
    total += tagLength + varintLength(length) + length;
  }
  batch.count = records.length;
  batch.tag = tag;
  return total;
}

/** Write the decisions limiterDecisionsLength sized into `out` at `at`; answers the offset after them. */
export function writeLimiterDecisions(out: Buffer, at: number): number {
  for (let i = 0; i < batch.count; i++) {
    const p = batch.kept[i];
    at = writeVarint(out, at, batch.tag);
    if (batch.counted[i]) {
      const prefix = (p.prefix as Prefix).bytes;
      const r = batch.results[i];
      at = writeVarint(out, at, prefix.length + TOKENS_BODY);
      out.set(prefix, at);
      at += prefix.length;
      at = writeDouble(out, at, TAG.remaining, r.remaining as number);
      at = writeDouble(out, at, TAG.current, r.current as number);
      at = writeDouble(out, at, TAG.consumed, r.tokens as number);
    } else {
      at = writeVarint(out, at, p.bytes.length);
      out.set(p.bytes, at);
      at += p.bytes.length;
    }
    batch.kept[i] = undefined as unknown as Previous; // nothing of this answer held past it
    batch.results[i] = undefined as unknown as LimiterResult;
  }
  batch.count = 0;
  return at;
}
