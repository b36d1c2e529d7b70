import { laterIncarnation, nextIncarnation, type MemberAddress, type MemberState, type MemberUpdate, type MemberView } from './member.js';
import type { MembershipMessage, Outbound, Sender } from './messages.js';

export interface MembershipOptions {
  self: MemberAddress;
  /** Start incarnation. A restarted member passes its clock, so it outranks what was said of its previous life. */
  incarnation: number;
  /** A probe is sent every this long. Default 500 ms. */
  probeIntervalMs?: number;
  /** No ack by then: ask `indirectChecks` others to probe. Default 200 ms. */
  probeTimeoutMs?: number;
  /** Members asked to probe indirectly. Default 3. */
  indirectChecks?: number;
  /** A suspect not refuted for this long is dead. Default 2 s. */
  suspicionTimeoutMs?: number;
  /** Full-state push-pull with a random member (and one presumed dead, to heal partitions) this often. Default 5 s. */
  syncIntervalMs?: number;
  /** Dead and left members are forgotten after this long. Default 60 s. */
  reapAfterMs?: number;
  /** Each update is piggybacked retransmitMult × ⌈log10(n+1)⌉ times. Default 4. */
  retransmitMult?: number;
  /** Updates piggybacked per message at most. Default 8. */
  maxPiggyback?: number;
  /** A reaped member is remembered this long: only a later incarnation of it (a restart) is learnt again. Default 5 × reapAfterMs. */
  tombstoneMs?: number;
  /** Randomness in [0, 1) (injected for tests). */
  random?: () => number;
  /** Whether a member may be learnt (or change address): discovery says it is a peer. Default: every member. */
  admit?: (u: MemberUpdate) => boolean;
  /** An update of a member that `admit` refused. */
  onRefused?: (u: MemberUpdate) => void;
  /** This node refuted a rumour about itself (its new incarnation, the rumour). */
  onRefute?: (incarnation: number, rumour: MemberUpdate) => void;
}

export type MembershipListener = (member: MemberView, previous: MemberState | undefined) => void;

interface Probe {
  readonly target: string;
  readonly seq: number;
  readonly sentMs: number;
  indirectSent: boolean;
}

interface Forward {
  readonly requesterAddr: string;
  readonly requesterSeq: number;
  readonly expiresMs: number;
}

interface Queued {
  update: MemberUpdate;
  sent: number;
}

/**
 * The SWIM membership of one node as a pure state machine: it never reads a
 * clock and never touches a socket. The caller feeds it time (`tick`) and
 * packets (`receive`) and sends what they return, so tests drive it over a
 * simulated clock and network.
 */
export class Membership {
  readonly self: MemberAddress;
  private incarnation: number;
  private leftGroup = false;
  private readonly members = new Map<string, MemberView>();
  private readonly queue = new Map<string, Queued>();
  private readonly listeners: MembershipListener[] = [];
  private readonly forwards = new Map<number, Forward>();
  private probe: Probe | undefined;
  private probeOrder: string[] = [];
  private seq = 0;
  private nextProbeMs = 0;
  private nextSyncMs = 0;
  /** Reaped members: their last incarnation, until when it is kept. */
  private readonly tombstones = new Map<string, { incarnation: number; untilMs: number }>();
  private readonly o: Required<Omit<MembershipOptions, 'self' | 'incarnation' | 'admit' | 'onRefused' | 'onRefute'>>;
  private readonly admit: ((u: MemberUpdate) => boolean) | undefined;
  private readonly onRefused: ((u: MemberUpdate) => void) | undefined;
  private readonly onRefute: ((incarnation: number, rumour: MemberUpdate) => void) | undefined;

  constructor(opts: MembershipOptions) {
    this.self = opts.self;
    this.incarnation = opts.incarnation;
    this.o = {
      probeIntervalMs: opts.probeIntervalMs ?? 500,
      probeTimeoutMs: opts.probeTimeoutMs ?? 200,
      indirectChecks: opts.indirectChecks ?? 3,
      suspicionTimeoutMs: opts.suspicionTimeoutMs ?? 2000,
      syncIntervalMs: opts.syncIntervalMs ?? 5000,
      reapAfterMs: opts.reapAfterMs ?? 60_000,
      retransmitMult: opts.retransmitMult ?? 4,
      maxPiggyback: opts.maxPiggyback ?? 8,
      tombstoneMs: opts.tombstoneMs ?? 5 * (opts.reapAfterMs ?? 60_000),
      random: opts.random ?? Math.random,
    };
    this.admit = opts.admit;
    this.onRefused = opts.onRefused;
    this.onRefute = opts.onRefute;
  }

  get currentIncarnation(): number {
    return this.incarnation;
  }

  get hasLeft(): boolean {
    return this.leftGroup;
  }

  onChange(cb: MembershipListener): void {
    this.listeners.push(cb);
  }

  /**
   * Whether time alone changes nothing soon: no other member known, no probe out and no ping-req
   * being forwarded (tombstones and the push-pull schedule keep for seconds at least). A member in
   * this state may tick slowly; a packet or a join can end it.
   */
  get quiet(): boolean {
    return this.members.size === 0 && this.probe === undefined && this.forwards.size === 0;
  }

  /** Every other member this node knows, in any state. */
  view(): MemberView[] {
    return [...this.members.values()];
  }

  member(id: string): MemberView | undefined {
    return this.members.get(id);
  }

  /** Ask each address for a full-state push-pull (the seeds: etcd, Kubernetes, configuration). */
  join(addrs: Iterable<string>): Outbound[] {
    if (this.leftGroup) return [];
    const out: Outbound[] = [];
    for (const to of addrs) if (to !== this.self.gossipAddr) out.push({ to, msg: this.syncMessage(false), reliable: true });
    return out;
  }

  /** Leave the group: tell every member, then stop probing and answering. */
  leave(nowMs: number): Outbound[] {
    if (this.leftGroup) return [];
    this.incarnation = nextIncarnation(this.incarnation);
    const u = this.selfUpdate('left');
    this.leftGroup = true;
    void nowMs;
    const out: Outbound[] = [];
    for (const m of this.members.values()) {
      if (m.state === 'alive' || m.state === 'suspect') out.push({ to: m.gossipAddr, msg: { t: 'gossip', gossip: [u] }, reliable: false });
    }
    return out;
  }

  /** Suspect a member on outside evidence (an operation it did not answer in time). */
  suspect(id: string, nowMs: number): void {
    const m = this.members.get(id);
    if (m === undefined || m.state !== 'alive') return;
    this.apply({ ...m, state: 'suspect' }, nowMs);
  }

  /** Advance time: probes, indirect probes, suspicion timeouts, push-pull, reaping. */
  tick(nowMs: number): Outbound[] {
    if (this.leftGroup) return [];
    const out: Outbound[] = [];
    const p = this.probe;
    if (p !== undefined) {
      if (!p.indirectSent && nowMs - p.sentMs >= this.o.probeTimeoutMs) {
        p.indirectSent = true;
        const target = this.members.get(p.target);
        if (target !== undefined) {
          const helpers = this.pick(this.live().filter((m) => m.id !== p.target && m.state === 'alive'), this.o.indirectChecks);
          const tgt: MemberAddress = { id: target.id, gossipAddr: target.gossipAddr, opsAddr: target.opsAddr };
          for (const h of helpers) out.push(this.send(h.gossipAddr, { t: 'ping-req', seq: p.seq, target: tgt, gossip: [] }));
        }
      }
      if (nowMs - p.sentMs >= this.o.probeIntervalMs) {
        this.probe = undefined;
        const m = this.members.get(p.target);
        if (m !== undefined && m.state === 'alive') this.apply({ ...m, state: 'suspect' }, nowMs);
      }
    }
    if (this.probe === undefined && nowMs >= this.nextProbeMs) {
      this.nextProbeMs = nowMs + this.o.probeIntervalMs;
      const target = this.nextProbeTarget();
      if (target !== undefined) {
        const seq = ++this.seq;
        this.probe = { target: target.id, seq, sentMs: nowMs, indirectSent: false };
        out.push(this.send(target.gossipAddr, { t: 'ping', seq, target: target.id, gossip: [] }));
      }
    }
    for (const m of [...this.members.values()]) {
      if (m.state === 'suspect' && nowMs - m.sinceMs >= this.o.suspicionTimeoutMs) this.apply({ ...m, state: 'dead' }, nowMs);
      else if ((m.state === 'dead' || m.state === 'left') && nowMs - m.sinceMs >= this.o.reapAfterMs) {
        this.members.delete(m.id);
        this.queue.delete(m.id);
        this.tombstones.set(m.id, { incarnation: m.incarnation, untilMs: nowMs + this.o.tombstoneMs });
      }
    }
    for (const [id, t] of this.tombstones) if (nowMs >= t.untilMs) this.tombstones.delete(id);
    for (const [seq, f] of this.forwards) if (nowMs >= f.expiresMs) this.forwards.delete(seq);
    if (nowMs >= this.nextSyncMs) {
      this.nextSyncMs = nowMs + this.o.syncIntervalMs;
      const alive = this.pick(this.live(), 1);
      const dead = this.pick([...this.members.values()].filter((m) => m.state === 'dead'), 1);
      for (const m of [...alive, ...dead]) out.push({ to: m.gossipAddr, msg: this.syncMessage(false), reliable: true });
    }
    return out;
  }

  /** Handle a message of a member of this group (the transport dropped foreign and malformed ones). */
  receive(msg: MembershipMessage, from: Sender, nowMs: number): Outbound[] {
    if (this.leftGroup || from.id === this.self.id) return [];
    const out: Outbound[] = [];
    switch (msg.t) {
      case 'ping':
        this.applyAll(msg.gossip, nowMs);
        if (msg.target === this.self.id) out.push(this.send(from.gossipAddr, { t: 'ack', seq: msg.seq, gossip: [] }));
        break;
      case 'ack': {
        this.applyAll(msg.gossip, nowMs);
        const f = this.forwards.get(msg.seq);
        if (f !== undefined) {
          this.forwards.delete(msg.seq);
          out.push(this.send(f.requesterAddr, { t: 'ack', seq: f.requesterSeq, gossip: [] }));
        } else if (this.probe !== undefined && this.probe.seq === msg.seq) {
          this.probe = undefined;
        }
        break;
      }
      case 'ping-req': {
        this.applyAll(msg.gossip, nowMs);
        const seq = ++this.seq;
        this.forwards.set(seq, { requesterAddr: from.gossipAddr, requesterSeq: msg.seq, expiresMs: nowMs + this.o.probeIntervalMs });
        out.push(this.send(msg.target.gossipAddr, { t: 'ping', seq, target: msg.target.id, gossip: [] }));
        break;
      }
      case 'gossip':
        this.applyAll(msg.gossip, nowMs);
        break;
      case 'sync':
        this.applyAll(msg.members, nowMs);
        if (!msg.reply) out.push({ to: from.gossipAddr, msg: this.syncMessage(true), reliable: true });
        break;
    }
    return out;
  }

  private syncMessage(reply: boolean): MembershipMessage {
    const members: MemberUpdate[] = [this.selfUpdate('alive')];
    for (const m of this.members.values()) members.push(toUpdate(m));
    return { t: 'sync', reply, members };
  }

  private selfUpdate(state: MemberState): MemberUpdate {
    return { ...this.self, incarnation: this.incarnation, state };
  }

  private live(): MemberView[] {
    return [...this.members.values()].filter((m) => m.state === 'alive' || m.state === 'suspect');
  }

  /** Round-robin over a shuffled list of the live members (every member is probed within n intervals). */
  private nextProbeTarget(): MemberView | undefined {
    for (;;) {
      if (this.probeOrder.length === 0) {
        const ids = this.live().map((m) => m.id);
        if (ids.length === 0) return undefined;
        this.probeOrder = this.shuffle(ids);
      }
      const id = this.probeOrder.shift() as string;
      const m = this.members.get(id);
      if (m !== undefined && (m.state === 'alive' || m.state === 'suspect')) return m;
    }
  }

  private shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.o.random() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  }

  private pick<T>(xs: T[], n: number): T[] {
    return this.shuffle([...xs]).slice(0, n);
  }

  /** A message with piggybacked gossip: the least-sent updates first; each is dropped after enough sends. */
  private send(to: string, msg: MembershipMessage): Outbound {
    if (msg.t === 'sync') return { to, msg, reliable: true };
    const limit = this.o.retransmitMult * Math.max(1, Math.ceil(Math.log10(this.members.size + 2)));
    const picked = [...this.queue.values()].sort((a, b) => a.sent - b.sent).slice(0, this.o.maxPiggyback);
    for (const q of picked) {
      q.sent++;
      if (q.sent >= limit) this.queue.delete(q.update.id);
    }
    const gossip = picked.map((q) => q.update);
    return { to, msg: { ...msg, gossip: [...msg.gossip, ...gossip] } as MembershipMessage, reliable: false };
  }

  private applyAll(updates: readonly MemberUpdate[], nowMs: number): void {
    for (const u of updates) this.apply(u, nowMs);
  }

  /**
   * The SWIM precedence rules: a later incarnation wins; at equal ones,
   * alive < suspect < dead/left. A member not known is learnt only alive or
   * suspect (a dead one handed back by a push-pull is kept as a tombstone), only at an
   * incarnation later than its tombstone's (a restart), and only when
   * `admit` says it is a peer.
   */
  private apply(u: MemberUpdate, nowMs: number): void {
    if (u.id === this.self.id) {
      if (u.state !== 'alive' && !laterIncarnation(this.incarnation, u.incarnation) && !this.leftGroup) {
        this.incarnation = nextIncarnation(u.incarnation); // refute: we are alive
        this.enqueue(this.selfUpdate('alive'));
        this.onRefute?.(this.incarnation, u);
      }
      return;
    }
    const known = this.members.get(u.id);
    if (!accepts(known, u)) return;
    if (known === undefined) {
      const tomb = this.tombstones.get(u.id);
      if (u.state === 'dead' || u.state === 'left') {
        // news of a death this node never saw alive: remembered as a tombstone, not as a member
        if (tomb === undefined) this.tombstones.set(u.id, { incarnation: u.incarnation, untilMs: nowMs + this.o.tombstoneMs });
        else if (laterIncarnation(u.incarnation, tomb.incarnation)) tomb.incarnation = u.incarnation;
        return;
      }
      if (tomb !== undefined && !laterIncarnation(u.incarnation, tomb.incarnation)) return;
    }
    if ((known === undefined || known.opsAddr !== u.opsAddr || known.gossipAddr !== u.gossipAddr) && this.admit !== undefined && !this.admit(u)) {
      this.onRefused?.(u);
      return;
    }
    this.tombstones.delete(u.id);
    const view: MemberView = { ...u, sinceMs: known !== undefined && known.state === u.state ? known.sinceMs : nowMs };
    this.members.set(u.id, view);
    this.enqueue(u);
    if (known === undefined || known.state !== u.state || known.incarnation !== u.incarnation || known.opsAddr !== u.opsAddr) {
      for (const cb of this.listeners) cb(view, known?.state);
    }
  }

  private enqueue(u: MemberUpdate): void {
    this.queue.set(u.id, { update: u, sent: 0 });
  }
}

function toUpdate(m: MemberView): MemberUpdate {
  return { id: m.id, gossipAddr: m.gossipAddr, opsAddr: m.opsAddr, incarnation: m.incarnation, state: m.state };
}

/** Whether update `u` supersedes what is known. */
export function accepts(known: MemberView | undefined, u: MemberUpdate): boolean {
  if (known === undefined) return true;
  if (u.incarnation === known.incarnation) return rank(u.state) > rank(known.state);
  return laterIncarnation(u.incarnation, known.incarnation);
}

function rank(s: MemberState): number {
  return s === 'alive' ? 0 : s === 'suspect' ? 1 : 2;
}
