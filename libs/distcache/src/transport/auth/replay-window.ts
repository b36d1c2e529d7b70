/**
 * What was seen within a time window (tags of packets, nonces of
 * connections): a second sighting inside the window is a replay; anything
 * stamped outside it is stale. Bounded: past `maxEntries` the oldest
 * sightings go first.
 */
export class ReplayWindow {
  private readonly seen = new Map<string, number>();

  constructor(readonly windowMs = 30_000, private readonly maxEntries = 100_000) {}

  /** 'ok' (and remembered), 'stale' (stamp out of the window) or 'replay'. */
  check(id: string, stampMs: number, nowMs: number): 'ok' | 'stale' | 'replay' {
    if (!Number.isFinite(stampMs) || Math.abs(nowMs - stampMs) > this.windowMs) return 'stale';
    if (this.seen.has(id)) return 'replay';
    this.prune(nowMs);
    this.seen.set(id, stampMs + this.windowMs);
    return 'ok';
  }

  get size(): number {
    return this.seen.size;
  }

  private prune(nowMs: number): void {
    if (this.seen.size < this.maxEntries) return;
    for (const [id, until] of this.seen) {
      if (until < nowMs || this.seen.size >= this.maxEntries) this.seen.delete(id);
      else break;
    }
  }
}
