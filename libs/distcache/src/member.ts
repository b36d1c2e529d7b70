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
