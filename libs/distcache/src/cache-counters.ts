import type { DistCacheMetrics } from './metrics.js';

/** What a DistCache counts for its stats, beside the metrics of the same events. */
export class CacheCounters {
  local = 0;
  remote = 0;
  served = 0;
  fallbacks = 0;
  /** Fallbacks that admitted (on this agent's share). */
  fallbacksAdmitted = 0;
  handovers = 0;
  dropped = 0;

  constructor(private readonly metrics: DistCacheMetrics) {}

  fallback(reason: 'timeout' | 'error' | 'minority', mode: 'open' | 'closed', admitted: boolean): void {
    this.fallbacks++;
    this.metrics.fallbacks.inc({ reason, mode });
    if (admitted) {
      this.fallbacksAdmitted++;
      this.metrics.fallbacksAdmitted.inc({ reason });
    }
  }

  handover(direction: 'sent' | 'received' | 'promoted'): void {
    this.handovers++;
    this.metrics.handovers.inc({ direction });
  }

  drop(reason: string): void {
    this.dropped++;
    this.metrics.droppedPackets.inc({ reason });
  }
}
