import { randomUUID } from 'node:crypto';

/** A flow that flux meters measure, between its check and its end. */
export interface InflightFlow {
  readonly controlPoint: string;
  /** Names of the flux meters that selected it. */
  readonly fluxMeters: readonly string[];
  readonly decisionType: string;
  /** Check time, epoch ms. */
  readonly startMs: number;
  /** The schedulers that admitted it and the workload of each: its duration feeds their token estimates. */
  readonly workloads?: readonly AdmittedWorkload[];
}

/** A scheduler (by policy and component id) and the workload it admitted a flow into. */
export interface AdmittedWorkload {
  readonly policyName: string;
  readonly componentId: string;
  readonly workloadIndex: string;
}

export interface InflightFlowsOptions {
  /** Flows kept at most; adding past it drops the oldest (counted as evicted). Default 100 000. */
  maxFlows?: number;
  /** A flow not ended within this many ms is forgotten (counted as expired). Default 300 000 (5 min). */
  ttlMs?: number;
  /** Clock, epoch ms. */
  now?: () => number;
}

export interface InflightFlowsStats {
  added: number;
  ended: number;
  /** Ends naming a flow id never handed out, or already ended. */
  unknown: number;
  /** Flows forgotten past the TTL (found at their end, or swept). */
  expired: number;
  /** Flows dropped because the map was full. */
  evicted: number;
}

interface Entry { readonly flow: InflightFlow; readonly expiresAtMs: number }

export type FlowEndLookup = { ok: true; flow: InflightFlow } | { ok: false; reason: 'unknown' | 'expired' };

/**
 * flow id → the measured flow, bounded in count and age. Ids are random
 * UUIDs. Entries are kept in insertion order, so expired ones are swept
 * from the front as flows are added: no timer.
 */
export class InflightFlows {
  readonly stats: InflightFlowsStats = { added: 0, ended: 0, unknown: 0, expired: 0, evicted: 0 };
  private readonly flows = new Map<string, Entry>();
  private readonly maxFlows: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(opts: InflightFlowsOptions = {}) {
    this.maxFlows = Math.max(1, opts.maxFlows ?? 100_000);
    this.ttlMs = Math.max(0, opts.ttlMs ?? 300_000);
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.flows.size;
  }

  /** Keep a flow until its end; answers its id. */
  add(flow: InflightFlow): string {
    const now = this.now();
    this.sweep(now);
    if (this.flows.size >= this.maxFlows) {
      const oldest = this.flows.keys().next();
      if (oldest.done !== true) {
        this.flows.delete(oldest.value);
        this.stats.evicted++;
      }
    }
    const id = randomUUID();
    this.flows.set(id, { flow, expiresAtMs: now + this.ttlMs });
    this.stats.added++;
    return id;
  }

  /**
   * Take the flow of an id out (a flow ends once). With `controlPoint`, an
   * id of another control point is unknown (and stays for its own caller).
   */
  end(flowId: string, controlPoint?: string): FlowEndLookup {
    const entry = this.flows.get(flowId);
    if (entry === undefined || (controlPoint !== undefined && entry.flow.controlPoint !== controlPoint)) {
      this.stats.unknown++;
      return { ok: false, reason: 'unknown' };
    }
    this.flows.delete(flowId);
    if (entry.expiresAtMs < this.now()) {
      this.stats.expired++;
      return { ok: false, reason: 'expired' };
    }
    this.stats.ended++;
    return { ok: true, flow: entry.flow };
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.flows) {
      if (entry.expiresAtMs >= now) return;
      this.flows.delete(id);
      this.stats.expired++;
    }
  }
}
