import { Membership, type MembershipOptions } from '../membership/membership.js';
import type { MembershipMessage, Sender } from '../membership/messages.js';
import { decodePacket, encodePacket } from '../membership/wire.js';

/** A simulated network for membership tests: packets are dropped, delayed and so reordered, on a simulated clock. */
export interface SimNetworkOptions {
  dropRate: number;
  minDelayMs: number;
  maxDelayMs: number;
  random: () => number;
  /** Every message goes through the packet codec, as between processes; ones it drops never arrive. */
  wire?: boolean;
}

interface InFlight {
  at: number;
  to: string;
  from: Sender;
  msg: MembershipMessage;
}

export class SimNetwork {
  nowMs = 0;
  readonly nodes = new Map<string, Membership>();
  private inFlight: InFlight[] = [];
  /** Addresses cut off from each other: a packet between two different sides is lost. */
  private sides = new Map<string, number>();
  opts: SimNetworkOptions;

  constructor(opts: SimNetworkOptions) {
    this.opts = opts;
  }

  /** Add a node (addr = id) and have it join through `seeds`. */
  add(id: string, seeds: string[], extra: Partial<MembershipOptions> = {}): Membership {
    const m = new Membership({
      self: { id, gossipAddr: id, opsAddr: `${id}:ops` },
      incarnation: this.nowMs,
      probeIntervalMs: 200,
      probeTimeoutMs: 80,
      suspicionTimeoutMs: 1000,
      syncIntervalMs: 1000,
      reapAfterMs: 30_000,
      random: this.opts.random,
      ...extra,
    });
    this.nodes.set(id, m);
    this.dispatch(m, m.join(seeds));
    return m;
  }

  /** A hostile sender: `msg` arrives at `to` after `delayMs` as if from `from` (nothing checks the claim). */
  inject(to: string, from: Sender, msg: MembershipMessage, delayMs = 1): void {
    this.inFlight.push({ at: this.nowMs + delayMs, to, from, msg });
  }

  /** Messages the packet codec dropped (with `wire`), by sender. */
  readonly dropped = new Map<string, number>();

  /** The node stops (a crash: nothing more in or out). */
  crash(id: string): void {
    this.nodes.delete(id);
  }

  partition(groups: string[][]): void {
    this.sides = new Map();
    groups.forEach((g, i) => g.forEach((id) => this.sides.set(id, i)));
  }

  heal(): void {
    this.sides = new Map();
  }

  dispatch(m: Membership, out: ReturnType<Membership['tick']>): void {
    for (const o of out) {
      // reliable (TCP) messages are not dropped at random but cannot cross a partition
      if (!o.reliable && this.opts.random() < this.opts.dropRate) continue;
      const delay = this.opts.minDelayMs + Math.floor(this.opts.random() * (this.opts.maxDelayMs - this.opts.minDelayMs + 1));
      this.inFlight.push({ at: this.nowMs + delay, to: o.to, from: { id: m.self.id, gossipAddr: m.self.gossipAddr }, msg: o.msg });
    }
  }

  /** Advance the clock by `ms` in steps of `stepMs`, delivering due packets and ticking every node. */
  run(ms: number, stepMs = 10): void {
    const end = this.nowMs + ms;
    while (this.nowMs < end) {
      this.nowMs += stepMs;
      const due = this.inFlight.filter((p) => p.at <= this.nowMs);
      this.inFlight = this.inFlight.filter((p) => p.at > this.nowMs);
      for (const p of due) {
        const node = this.nodes.get(p.to);
        if (node === undefined) continue;
        const a = this.sides.get(p.from.id);
        const b = this.sides.get(p.to);
        if (a !== undefined && b !== undefined && a !== b) continue;
        let msg = p.msg;
        if (this.opts.wire === true) {
          const d = decodePacket('sim', encodePacket('sim', p.from, p.msg));
          if (!d.ok) {
            this.dropped.set(p.from.id, (this.dropped.get(p.from.id) ?? 0) + 1);
            continue;
          }
          msg = d.msg;
        }
        this.dispatch(node, node.receive(msg, p.from, this.nowMs));
      }
      for (const node of [...this.nodes.values()]) this.dispatch(node, node.tick(this.nowMs));
    }
  }

  /** State of `id` as `observer` sees it. */
  stateOf(observer: string, id: string): string | undefined {
    return this.nodes.get(observer)?.member(id)?.state;
  }

  /** Every running node sees every other running node alive. */
  converged(): boolean {
    const ids = [...this.nodes.keys()];
    return ids.every((a) => ids.every((b) => a === b || this.stateOf(a, b) === 'alive'));
  }
}

/** A seeded pseudo-random generator (mulberry32), so a failing property replays. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
