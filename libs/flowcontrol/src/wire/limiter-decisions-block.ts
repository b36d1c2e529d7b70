import type { LimiterResult } from '../check/component.js';
import type { LimiterRecord } from '../check/decision.js';
import { COUNTS, countedSuffixLength, isCounted } from './limiter-decision-wire.js';
import type { LimiterDetails } from '../limiters/limiter-details.js';

type Identity = LimiterRecord['identity'];

/**
 * The limiter decisions of one answer as they were written, for the next answer of the same
 * limiters that says the same but for their counts: the rate limiters and quota schedulers of a
 * control point decide on every flow, and while each one's identity, verdict, wait, label,
 * workload and priority stay, their decisions differ only in three doubles each. Such an answer is this block's bytes with the
 * counts written over (writeDecisionsBlock): one copy, instead of a lookup, a prefix and a
 * tag and length per decision.
 */
export interface DecisionsBlock {
  readonly ids: readonly Identity[];
  readonly names: readonly string[];
  readonly hashes: readonly string[];
  readonly components: readonly string[];
  readonly accepted: readonly boolean[];
  readonly waits: readonly number[];
  readonly details: readonly LimiterDetails[];
  readonly labels: readonly (string | undefined)[];
  readonly workloads: readonly (string | undefined)[];
  readonly priorities: readonly (number | undefined)[];
  readonly bytes: Buffer;
  /** Offset in `bytes` of each decision's counts (COUNTS). */
  readonly countsAt: readonly number[];
  /** Answers of these limiters in a row that the block did not fit (see offerDecisionsBlock). */
  misses: number;
}

/** Blocks by the identity of their first limiter (one per control point and service set, in practice). */
const blocks = new WeakMap<Identity, DecisionsBlock>();

/** The block that `records` can be written from (all said the same but for their counts), if one is kept. */
export function decisionsBlockFor(records: readonly LimiterRecord[]): DecisionsBlock | undefined {
  const b = blocks.get(records[0].identity);
  if (b === undefined) return undefined;
  if (fits(b, records)) {
    b.misses = 0;
    return b;
  }
  b.misses++;
  return undefined;
}

function fits(b: DecisionsBlock, records: readonly LimiterRecord[]): boolean {
  if (b.ids.length !== records.length) return false;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    const id = rec.identity;
    const r = rec.result;
    if (id !== b.ids[i] || rec.kind.details !== b.details[i] || r.keyNotFound === true || !isCounted(rec)) return false;
    if (r.accepted !== b.accepted[i] || r.waitMs !== b.waits[i] || r.label !== b.labels[i]) return false;
    if (r.workloadIndex !== b.workloads[i] || r.priority !== b.priorities[i]) return false;
    if (id.policy_hash !== b.hashes[i] || id.policy_name !== b.names[i] || id.component_id !== b.components[i]) return false;
  }
  return true;
}

/** Write `records` (which the block fits) into `out` at `at` through `view` (a DataView of `out`); answers the offset after them. */
export function writeDecisionsBlock(b: DecisionsBlock, records: readonly LimiterRecord[], out: Buffer, view: DataView, at: number): number {
  out.set(b.bytes, at);
  const base = at + out.byteOffset - view.byteOffset;
  for (let i = 0; i < records.length; i++) {
    const r: LimiterResult = records[i].result;
    const c = base + b.countsAt[i];
    view.setFloat64(c + COUNTS.remaining, r.remaining as number, true);
    view.setFloat64(c + COUNTS.current, r.current as number, true);
    view.setFloat64(c + COUNTS.consumed, r.tokens as number, true);
  }
  return at + b.bytes.length;
}

/** Read a varint at `at`; answers [value, offset after it]. */
function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, at];
    scale *= 128;
  }
}

/**
 * `written`: the decisions of `records` just written as elements of a repeated field (each its
 * tag, its length and its bytes, a counted one ending with its counts and its suffix). Kept as
 * the block of these limiters when every one is counted (limiter-decision-wire.ts); a block that keeps missing
 * (a label that changes on every flow) is made again only every 64th answer, not each time.
 */
export function offerDecisionsBlock(records: readonly LimiterRecord[], written: Uint8Array): void {
  if (records.length === 0) return;
  const old = blocks.get(records[0].identity);
  if (old !== undefined && old.misses > 2 && old.misses % 64 !== 0) return;
  const ids: Identity[] = [];
  const names: string[] = [];
  const hashes: string[] = [];
  const components: string[] = [];
  const accepted: boolean[] = [];
  const waits: number[] = [];
  const details: LimiterDetails[] = [];
  const labels: (string | undefined)[] = [];
  const workloads: (string | undefined)[] = [];
  const priorities: (number | undefined)[] = [];
  const countsAt: number[] = [];
  let at = 0;
  for (const rec of records) {
    const r = rec.result;
    if (r.keyNotFound === true || !isCounted(rec)) return;
    const [, afterTag] = readVarint(written, at);
    const [length, start] = readVarint(written, afterTag);
    at = start + length;
    countsAt.push(at - COUNTS.length - countedSuffixLength(rec));
    ids.push(rec.identity);
    names.push(rec.identity.policy_name);
    hashes.push(rec.identity.policy_hash);
    components.push(rec.identity.component_id);
    accepted.push(r.accepted);
    waits.push(r.waitMs);
    details.push(rec.kind.details);
    labels.push(r.label);
    workloads.push(r.workloadIndex);
    priorities.push(r.priority);
  }
  if (at !== written.length) return;
  blocks.set(records[0].identity, { ids, names, hashes, components, accepted, waits, details, labels, workloads, priorities, bytes: Buffer.from(written), countsAt, misses: 0 });
}
