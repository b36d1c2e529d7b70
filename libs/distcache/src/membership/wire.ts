import { isIncarnation, type MemberAddress, type MemberState, type MemberUpdate } from './member.js';
import type { MembershipMessage, Sender } from './messages.js';

/** Protocol version of the membership packets: a member of another version is never merged. */
export const MEMBERSHIP_PROTOCOL_VERSION = 1;
const MAGIC = 'sluice-ml';
const MAX_GOSSIP = 1024;
const MAX_ID = 256;

/** Why a packet was dropped (a label of the dropped-packets counter). */
export type DropReason = 'malformed' | 'foreign_group' | 'version';

export type Decoded =
  | { ok: true; from: Sender; msg: MembershipMessage }
  | { ok: false; reason: DropReason };

export function encodePacket(group: string, from: Sender, msg: MembershipMessage): Buffer {
  return Buffer.from(JSON.stringify({ p: MAGIC, v: MEMBERSHIP_PROTOCOL_VERSION, g: group, f: from.id, a: from.gossipAddr, m: msg }));
}

/** Decode and check a packet of `group`; anything else is a drop with its reason, never a throw. */
export function decodePacket(group: string, bytes: Buffer): Decoded {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isObject(raw) || raw.p !== MAGIC) return { ok: false, reason: 'malformed' };
  if (raw.v !== MEMBERSHIP_PROTOCOL_VERSION) return { ok: false, reason: 'version' };
  if (typeof raw.g !== 'string') return { ok: false, reason: 'malformed' };
  if (raw.g !== group) return { ok: false, reason: 'foreign_group' };
  if (!isId(raw.f) || !isId(raw.a)) return { ok: false, reason: 'malformed' };
  const msg = message(raw.m);
  if (msg === undefined) return { ok: false, reason: 'malformed' };
  return { ok: true, from: { id: raw.f, gossipAddr: raw.a }, msg };
}

function message(m: unknown): MembershipMessage | undefined {
  if (!isObject(m)) return undefined;
  switch (m.t) {
    case 'ping': {
      const gossip = updates(m.gossip);
      return isSeq(m.seq) && isId(m.target) && gossip ? { t: 'ping', seq: m.seq, target: m.target, gossip } : undefined;
    }
    case 'ack': {
      const gossip = updates(m.gossip);
      return isSeq(m.seq) && gossip ? { t: 'ack', seq: m.seq, gossip } : undefined;
    }
    case 'ping-req': {
      const gossip = updates(m.gossip);
      const target = address(m.target);
      return isSeq(m.seq) && target && gossip ? { t: 'ping-req', seq: m.seq, target, gossip } : undefined;
    }
    case 'gossip': {
      const gossip = updates(m.gossip);
      return gossip ? { t: 'gossip', gossip } : undefined;
    }
    case 'sync': {
      const members = updates(m.members);
      return typeof m.reply === 'boolean' && members ? { t: 'sync', reply: m.reply, members } : undefined;
    }
    default:
      return undefined;
  }
}

function updates(x: unknown): MemberUpdate[] | undefined {
  if (!Array.isArray(x) || x.length > MAX_GOSSIP) return undefined;
  const out: MemberUpdate[] = [];
  for (const u of x) {
    const a = address(u);
    if (a === undefined || !isObject(u) || !isIncarnation(u.incarnation) || !isState(u.state)) return undefined;
    out.push({ ...a, incarnation: u.incarnation, state: u.state });
  }
  return out;
}

function address(x: unknown): MemberAddress | undefined {
  if (!isObject(x) || !isId(x.id) || !isId(x.gossipAddr) || !isId(x.opsAddr)) return undefined;
  return { id: x.id, gossipAddr: x.gossipAddr, opsAddr: x.opsAddr };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isId(x: unknown): x is string {
  return typeof x === 'string' && x.length > 0 && x.length <= MAX_ID;
}

function isSeq(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

function isState(x: unknown): x is MemberState {
  return x === 'alive' || x === 'suspect' || x === 'dead' || x === 'left';
}
