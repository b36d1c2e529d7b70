import type { ControlPointType } from './flow-request.js';

export interface ControlPointEntry {
  readonly controlPoint: string;
  readonly service: string;
  readonly type: ControlPointType;
  lastSeenMs: number;
  flows: number;
}

export interface ControlPointRegistryOptions {
  /** Entries kept at most (least recently seen go first). Default 1000. */
  maxEntries?: number;
  /** Entries not seen for this long are dropped. Default 10 minutes. */
  ttlMs?: number;
}

/**
 * The (control point, service, type) triples seen recently, with when they
 * were last seen and how many flows went through. Bounded in count and age.
 * A flow without services is recorded under service `any`.
 */
export class ControlPointRegistry {
  private readonly entries = new Map<string, Map<string, ControlPointEntry[]>>();
  private count = 0;
  readonly maxEntries: number;
  readonly ttlMs: number;

  constructor(opts: ControlPointRegistryOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 1000;
    this.ttlMs = opts.ttlMs ?? 10 * 60_000;
  }

  record(controlPoint: string, services: readonly string[], type: ControlPointType, nowMs: number): void {
    let byService = this.entries.get(controlPoint);
    if (byService === undefined) {
      byService = new Map();
      this.entries.set(controlPoint, byService);
    }
    if (services.length === 0) this.touch(byService, controlPoint, 'any', type, nowMs);
    else for (let i = 0; i < services.length; i++) this.touch(byService, controlPoint, services[i], type, nowMs);
    if (this.count > this.maxEntries) this.shrink(nowMs);
  }

  private touch(byService: Map<string, ControlPointEntry[]>, controlPoint: string, service: string, type: ControlPointType, nowMs: number): void {
    let list = byService.get(service);
    if (list === undefined) {
      list = [];
      byService.set(service, list);
    }
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      if (e.type === type) {
        e.lastSeenMs = nowMs;
        e.flows++;
        return;
      }
    }
    list.push({ controlPoint, service, type, lastSeenMs: nowMs, flows: 1 });
    this.count++;
  }

  /** Drop expired entries; past the bound, the least recently seen down to 90 %. */
  private shrink(nowMs: number): void {
    this.expire(nowMs);
    if (this.count <= this.maxEntries) return;
    const all = this.collect();
    all.sort((a, b) => a.lastSeenMs - b.lastSeenMs);
    const drop = new Set(all.slice(0, all.length - Math.floor(this.maxEntries * 0.9)));
    this.filter((e) => !drop.has(e));
  }

  private expire(nowMs: number): void {
    const cutoff = nowMs - this.ttlMs;
    this.filter((e) => e.lastSeenMs >= cutoff);
  }

  private filter(keep: (e: ControlPointEntry) => boolean): void {
    let count = 0;
    for (const [cp, byService] of this.entries) {
      for (const [service, list] of byService) {
        const kept = list.filter(keep);
        if (kept.length === 0) byService.delete(service);
        else byService.set(service, kept);
        count += kept.length;
      }
      if (byService.size === 0) this.entries.delete(cp);
    }
    this.count = count;
  }

  private collect(): ControlPointEntry[] {
    const out: ControlPointEntry[] = [];
    for (const byService of this.entries.values()) for (const list of byService.values()) out.push(...list);
    return out;
  }

  /**
   * The entries seen within the TTL, most recently seen first (what an operator looking for
   * live traffic wants on top); entries seen in the same millisecond by control point, service, type.
   */
  list(nowMs = Date.now()): ControlPointEntry[] {
    this.expire(nowMs);
    return this.collect()
      .map((e) => ({ ...e }))
      .sort((a, b) => b.lastSeenMs - a.lastSeenMs || cmp(a.controlPoint, b.controlPoint) || cmp(a.service, b.service) || cmp(a.type, b.type));
  }

  get size(): number {
    return this.count;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
