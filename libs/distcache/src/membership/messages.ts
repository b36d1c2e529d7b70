import type { MemberAddress, MemberUpdate } from './member.js';

/**
 * The membership protocol's messages (SWIM): `ping`/`ack` probe a member,
 * `ping-req` asks another member to probe it for us, `gossip` carries
 * updates alone (a leave), `sync` is the full-state push-pull, sent over TCP.
 * Every message piggybacks recent updates.
 */
export type MembershipMessage =
  | { readonly t: 'ping'; readonly seq: number; readonly target: string; readonly gossip: readonly MemberUpdate[] }
  | { readonly t: 'ack'; readonly seq: number; readonly gossip: readonly MemberUpdate[] }
  | { readonly t: 'ping-req'; readonly seq: number; readonly target: MemberAddress; readonly gossip: readonly MemberUpdate[] }
  | { readonly t: 'gossip'; readonly gossip: readonly MemberUpdate[] }
  | { readonly t: 'sync'; readonly reply: boolean; readonly members: readonly MemberUpdate[] };

/** A message to send: `reliable` ones (full-state sync) go over TCP. */
export interface Outbound {
  readonly to: string;
  readonly msg: MembershipMessage;
  readonly reliable: boolean;
}

/** Who sent a message (from its header). */
export interface Sender {
  readonly id: string;
  readonly gossipAddr: string;
}
