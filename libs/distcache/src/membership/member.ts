/** What the membership knows of one member of the agent group. */
export type MemberState = 'alive' | 'suspect' | 'dead' | 'left';

/** A member's addresses: its membership (gossip, UDP + TCP) and its counter operations (TCP). */
export interface MemberAddress {
  readonly id: string;
  readonly gossipAddr: string;
  readonly opsAddr: string;
}

/** One piece of gossip: a member's state at an incarnation. */
export interface MemberUpdate extends MemberAddress {
  readonly incarnation: number;
  readonly state: MemberState;
}

/** A member as this node sees it. */
export interface MemberView extends MemberUpdate {
  /** When (this node's clock) the member entered its state. */
  readonly sinceMs: number;
}

/** Members whose buckets the ring places (suspects keep theirs until they are declared dead). */
export function holdsBuckets(state: MemberState): boolean {
  return state === 'alive' || state === 'suspect';
}

/**
 * Incarnations live in [0, INCARNATION_MODULUS) and compare as serial
 * numbers (the later one is less than half the range ahead): a refutation
 * always exists (it wraps to 0 past the top), and every value stays a safe
 * integer, so no member is ever pushed to a number the others drop.
 */
export const INCARNATION_MODULUS = 2 ** 52;

export function isIncarnation(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < INCARNATION_MODULUS;
}

/** The incarnation after `i` (wrapping). */
export function nextIncarnation(i: number): number {
  return i + 1 >= INCARNATION_MODULUS ? 0 : i + 1;
}

/** Whether incarnation `a` is later than `b` (serial-number order over the modulus). */
export function laterIncarnation(a: number, b: number): boolean {
  const d = (((a - b) % INCARNATION_MODULUS) + INCARNATION_MODULUS) % INCARNATION_MODULUS;
  return d !== 0 && d < INCARNATION_MODULUS / 2;
}
