import { embeddedFieldWriter, enumNumbers, fieldTag, messageType, varintLength, wireSerializer, writeVarint } from '@sluice/proto';
import type { Duration, LimiterDecision, LimiterDecision_LimiterReason, LimiterDecision_LimiterReason__Output, StatusCode, StatusCode__Output } from '@sluice/proto';
import type { LimiterKind, LimiterResult } from '../check/component.js';
import type { LimiterRecord } from '../check/decision.js';
import type { LimiterDetails } from '../limiters/limiter-details.js';
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

const TOKENS_INFO = `${DECISION}.TokensInfo`;
/** The tags of the token counts, read from check.proto. */
const TAG = {
  remaining: fieldTag(TOKENS_INFO, 'remaining'),
  current: fieldTag(TOKENS_INFO, 'current'),
  consumed: fieldTag(TOKENS_INFO, 'consumed'),
};
/** Wire type of a double: 8 bytes, little-endian. */
const FIXED64 = 1;
if ((TAG.remaining & 7) !== FIXED64 || (TAG.current & 7) !== FIXED64 || (TAG.consumed & 7) !== FIXED64) {
  throw new Error('check.proto: TokensInfo\'s fields are no longer doubles; countedBytes writes them as doubles');
}
const TOKENS_BODY = varintLength(TAG.remaining) + varintLength(TAG.current) + varintLength(TAG.consumed) + 3 * 8;
/**
 * Where a counted decision's three counts sit in the COUNTS.length bytes that end its tokens_info
 * (the last bytes of the decision but for its suffix, see Prefix): the offsets of the values of
 * remaining, current and consumed (doubles).
 */
export const COUNTS = Object.freeze({
  length: TOKENS_BODY,
  remaining: varintLength(TAG.remaining),
  current: varintLength(TAG.remaining) + 8 + varintLength(TAG.current),
  consumed: varintLength(TAG.remaining) + 8 + varintLength(TAG.current) + 8 + varintLength(TAG.consumed),
});

/**
 * How the details of a counted kind (LimiterDetails.counted) are written, read from check.proto:
 * the tag of the details in the decision, and those of the message's fields in their order,
 * `label` and `workload_index` (strings, when the message has them), `tokens_info`, then
 * `priority` (a double, when it has it).
 */
interface CountedForm {
  readonly details: number;
  readonly label: number | undefined;
  readonly workload: number | undefined;
  readonly tokens: number;
  readonly priority: number | undefined;
}

const COUNTED_FIELDS = ['label', 'workload_index', 'tokens_info', 'priority'];
const forms = new Map<LimiterDetails, CountedForm>();

/** The counted form of `details` (made once); throws when its message is not of that shape. */
function formOf(details: LimiterDetails): CountedForm {
  let f = forms.get(details);
  if (f !== undefined) return f;
  const name = `${DECISION}.${details.message}`;
  const fields = [...messageType(name).fieldsArray].sort((a, b) => a.id - b.id).map((x) => x.name);
  const expected = COUNTED_FIELDS.filter((x) => fields.includes(x));
  if (fields.join() !== expected.join() || !fields.includes('tokens_info')
    || (fields.includes('priority') && (fieldTag(name, 'priority') & 7) !== FIXED64)) {
    throw new Error(`check.proto: ${name} (${fields.join(', ')}) is not label, workload_index, tokens_info, priority in that order; it cannot be counted`);
  }
  const tag = (field: string): number | undefined => (fields.includes(field) ? fieldTag(name, field) : undefined);
  f = { details: fieldTag(DECISION, details.field), label: tag('label'), workload: tag('workload_index'), tokens: fieldTag(name, 'tokens_info'), priority: tag('priority') };
  forms.set(details, f);
  return f;
}

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
 * What a counted decision says besides its counts, and its bytes around them: `bytes` (the kept
 * head, the details' tag and length, the label and workload index, the tag and length of the
 * token counts) then the counts, then `suffix` (the priority). Of one limiter's decisions these
 * say the same while the head, the label, the workload and the priority do: they are kept, and
 * a decision is this prefix, its counts and the suffix (countedBytes). A field the result lacks
 * is not written (as protobufjs does not).
 */
interface Prefix {
  label: string | undefined;
  workloadIndex: string | undefined;
  priority: number | undefined;
  bytes: Buffer;
  suffix: Buffer;
}

/** Whether `p` was made for what `r` says besides its counts. */
function samePrefix(p: { label: string | undefined; workloadIndex: string | undefined; priority: number | undefined }, r: LimiterResult): boolean {
  return p.label === r.label && p.workloadIndex === r.workloadIndex && p.priority === r.priority;
}

function stringLength(tag: number | undefined, v: string | undefined): number {
  if (tag === undefined || v === undefined) return 0;
  const n = Buffer.byteLength(v);
  return varintLength(tag) + varintLength(n) + n;
}

function writeString(out: Buffer, at: number, tag: number | undefined, v: string | undefined): number {
  if (tag === undefined || v === undefined) return at;
  at = writeVarint(out, at, tag);
  at = writeVarint(out, at, Buffer.byteLength(v));
  return at + out.write(v, at, 'utf8');
}

function countedPrefix(form: CountedForm, head: Buffer, r: LimiterResult): Prefix {
  const label = r.label;
  const workloadIndex = r.workloadIndex;
  const priority = r.priority;
  const suffix = Buffer.allocUnsafe(form.priority === undefined || priority === undefined ? 0 : varintLength(form.priority) + 8);
  if (suffix.length > 0) writeDouble(suffix, 0, form.priority as number, priority as number);
  const strings = stringLength(form.label, label) + stringLength(form.workload, workloadIndex);
  const body = strings + varintLength(form.tokens) + varintLength(TOKENS_BODY) + TOKENS_BODY + suffix.length;
  const out = Buffer.allocUnsafe(head.length + varintLength(form.details) + varintLength(body) + body - TOKENS_BODY - suffix.length);
  head.copy(out, 0);
  let at = writeVarint(out, head.length, form.details);
  at = writeVarint(out, at, body);
  at = writeString(out, at, form.label, label);
  at = writeString(out, at, form.workload, workloadIndex);
  at = writeVarint(out, at, form.tokens);
  writeVarint(out, at, TOKENS_BODY);
  return { label, workloadIndex, priority, bytes: out, suffix };
}

/** The kept prefix of `p` for `r` (made again when it says something else). */
function prefixFor(p: { prefix: Prefix | undefined; head: Buffer }, kind: Kind, r: LimiterResult): Prefix {
  let prefix = p.prefix;
  if (prefix === undefined || !samePrefix(prefix, r)) {
    prefix = countedPrefix(formOf(kind.details), p.head, r);
    p.prefix = prefix;
  }
  return prefix;
}

/** Write the three counts of `r` at `at`; answers the offset after them. */
function writeCounts(out: Buffer, at: number, r: LimiterResult): number {
  at = writeDouble(out, at, TAG.remaining, r.remaining as number);
  at = writeDouble(out, at, TAG.current, r.current as number);
  return writeDouble(out, at, TAG.consumed, r.tokens as number);
}

/**
 * A counted decision in one buffer: the kept prefix, the three token counts and the suffix, the
 * bytes protobufjs writes of it (a test holds the two to the same bytes). protobufjs's writer
 * spends about 0.7 us on such a decision (an object per field written, a buffer for the
 * details and another for the whole); this is one buffer and a copy.
 */
function countedBytes(kind: Kind, r: LimiterResult, kept: { prefix: Prefix | undefined; head: Buffer }): Buffer {
  const prefix = prefixFor(kept, kind, r);
  const start = prefix.bytes.length;
  const out = Buffer.allocUnsafe(start + TOKENS_BODY + prefix.suffix.length);
  prefix.bytes.copy(out, 0);
  prefix.suffix.copy(out, writeCounts(out, start, r));
  return out;
}

/** The bytes a counted decision of `rec` writes after its counts (its priority, when its kind and result have one). */
export function countedSuffixLength(rec: LimiterRecord): number {
  const tag = formOf(rec.kind.details).priority;
  return tag === undefined || rec.result.priority === undefined ? 0 : varintLength(tag) + 8;
}

/** Whether `rec`'s decision is written as a kept prefix, its counts and a suffix: a counted kind, every count there. */
export function isCounted(rec: LimiterRecord): boolean {
  return rec.kind.details.counted === true && hasCounts(rec.result);
}

/** The bytes of a decision: its head, then its details (`kept` holds what countedBytes keeps for the head). */
function decisionBytes(rec: LimiterRecord, kept: { prefix: Prefix | undefined; head: Buffer }): Buffer {
  const kind = rec.kind;
  if (isCounted(rec)) return countedBytes(kind, rec.result, kept);
  const details = writerOf(kind.details);
  return details.write(kept.head, details.encode(kind.details.wire(rec.result)));
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
  /** The head followed by the start of a counted decision's details (countedPrefix), once made. */
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
  p.bytes = decisionBytes(rec, p);
  return p.bytes;
}

/** A result with every count a counted decision writes (COUNTS). */
export function hasCounts(r: LimiterResult): boolean {
  return r.remaining !== undefined && r.current !== undefined && r.tokens !== undefined;
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
 * writes them next, with no buffer per decision: a counted decision is its kept prefix
 * (countedPrefix), its three counts and its suffix, any other its kept bytes.
 */
export function limiterDecisionsLength(records: readonly LimiterRecord[], tag: number): number {
  const tagLength = varintLength(tag);
  let total = 0;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    const r = rec.result;
    const p = keptFor(rec);
    let length: number;
    const counted = isCounted(rec);
    if (counted) {
      const prefix = prefixFor(p, rec.kind, r);
      length = prefix.bytes.length + TOKENS_BODY + prefix.suffix.length;
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
      const prefix = p.prefix as Prefix;
      at = writeVarint(out, at, prefix.bytes.length + TOKENS_BODY + prefix.suffix.length);
      out.set(prefix.bytes, at);
      at = writeCounts(out, at + prefix.bytes.length, batch.results[i]);
      out.set(prefix.suffix, at);
      at += prefix.suffix.length;
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
