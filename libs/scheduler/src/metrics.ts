import { Counter, Gauge, Histogram, Summary, type Registry } from 'prom-client';
import type { ComponentIdentity } from '@sluice/flowcontrol';

export const SCHEDULER_METRICS = {
  accepted: 'sluice_scheduler_accepted_flows_total',
  rejected: 'sluice_scheduler_rejected_flows_total',
  waitTime: 'sluice_scheduler_wait_time_ms',
  queueLength: 'sluice_scheduler_queue_length',
  incomingRate: 'sluice_scheduler_incoming_token_rate',
  acceptedRate: 'sluice_scheduler_accepted_token_rate',
  loadMultiplier: 'sluice_scheduler_load_multiplier',
} as const;

/** Aperture's names for the same (its dashboards and queries read them), labelled policy_name, policy_hash, component_id. */
export const APERTURE_SCHEDULER_METRICS = {
  workloadLatency: 'workload_latency_ms',
  incomingTokens: 'incoming_tokens_total',
  acceptedTokens: 'accepted_tokens_total',
  loadMultiplier: 'token_bucket_lm_ratio',
  fillRate: 'token_bucket_fill_rate',
  capacity: 'token_bucket_capacity_total',
  available: 'token_bucket_available_tokens_total',
} as const;

/**
 * Why a flow was turned away: no budget to wait, its wait ran out, its caller left, the scheduler
 * stopped; `dry_run`: it would have been (a dry-run scheduler admits it all the same).
 */
export type RejectReason = 'no_budget' | 'timeout' | 'cancelled' | 'shutdown' | 'dry_run';

/** The gauges' values of one scheduler, read at scrape time. */
export interface SchedulerGaugeSource {
  readonly identity: ComponentIdentity;
  gauges(): SchedulerGauges;
}

/** A scheduler's live numbers. */
export interface SchedulerGauges {
  queueLength: number;
  incomingTokensPerSecond: number;
  acceptedTokensPerSecond: number;
  loadMultiplier: number;
  /** Tokens per second the token bucket fills at (0 in pass-through). */
  fillRatePerSecond?: number;
  /** The most tokens the bucket holds. */
  bucketCapacity?: number;
  /** Tokens in the bucket now (negative: owed by flows admitted ahead of the rate). */
  availableTokens?: number;
}

/** What one scheduler records. */
export interface ComponentMetrics {
  /** A flow's tokens arrived (before it is decided). */
  incoming(tokens: number): void;
  accepted(workloadIndex: string, waitMs: number, tokens?: number): void;
  /** A flow it admitted ended after `durationMs` (the workload's latency). */
  flowEnded(workloadIndex: string, durationMs: number): void;
  rejected(workloadIndex: string, reason: RejectReason, waitMs: number): void;
  /** Stop reporting this scheduler's gauges. */
  close(): void;
}

export interface SchedulerMetrics {
  forScheduler(source: SchedulerGaugeSource): ComponentMetrics;
}

type WlLabel = 'policy_name' | 'component_id' | 'workload_index';

const WAIT_BUCKETS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500];

function single<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * The schedulers' metrics in one registry (shared by every scheduler of the process):
 * accepted and rejected flows and the wait time per workload, and, read at scrape
 * time, each scheduler's queue length, incoming and accepted token rates (tokens
 * per second) and load multiplier.
 */
export function schedulerMetrics(registry: Registry): SchedulerMetrics {
  let m = byRegistry.get(registry);
  if (m === undefined) {
    m = createMetrics(registry);
    byRegistry.set(registry, m);
  }
  return m;
}

const byRegistry = new WeakMap<Registry, SchedulerMetrics>();

function createMetrics(registry: Registry): SchedulerMetrics {
  const sources = new Set<SchedulerGaugeSource>();
  const idLabels = ['policy_name', 'component_id'] as const;
  const wlLabels = ['policy_name', 'component_id', 'workload_index'] as const;
  // admissions are counted in plain numbers on the check path and added to the counter when it is scraped
  const pending = new Map<SchedulerGaugeSource, Map<string, number>>();
  const accepted = single(registry, SCHEDULER_METRICS.accepted, () => new Counter({
    name: SCHEDULER_METRICS.accepted, help: 'Flows a load scheduler admitted, per workload.', labelNames: wlLabels, registers: [registry],
    collect() {
      for (const [source, counts] of pending) {
        for (const [workload_index, n] of counts) {
          if (n > 0) this.inc({ policy_name: source.identity.policy_name, component_id: source.identity.component_id, workload_index }, n);
          counts.set(workload_index, 0);
        }
      }
    },
  }));
  const rejected = single(registry, SCHEDULER_METRICS.rejected, () => new Counter({
    name: SCHEDULER_METRICS.rejected,
    help: 'Flows a load scheduler turned away (503), per workload and reason: no_budget, timeout, cancelled, shutdown, dry_run (would have been; admitted).',
    labelNames: [...wlLabels, 'reason'] as const,
    registers: [registry],
  }));
  const wait = single(registry, SCHEDULER_METRICS.waitTime, () => new Histogram({
    name: SCHEDULER_METRICS.waitTime, help: 'Time flows that queued spent in a load scheduler\'s queue, in milliseconds, per workload (admitted or turned away; flows admitted at once are not observed).',
    labelNames: wlLabels, buckets: WAIT_BUCKETS, registers: [registry],
  }));
  const gauge = (name: string, help: string, pick: (g: ReturnType<SchedulerGaugeSource['gauges']>) => number): void => {
    if (registry.getSingleMetric(name) !== undefined) return;
    new Gauge({
      name, help, labelNames: idLabels, registers: [registry],
      collect() {
        this.reset();
        for (const s of sources) this.set({ policy_name: s.identity.policy_name, component_id: s.identity.component_id }, pick(s.gauges()));
      },
    });
  };
  gauge(SCHEDULER_METRICS.queueLength, 'Flows waiting in a load scheduler\'s queue.', (g) => g.queueLength);
  gauge(SCHEDULER_METRICS.incomingRate, 'Tokens per second arriving at a load scheduler.', (g) => g.incomingTokensPerSecond);
  gauge(SCHEDULER_METRICS.acceptedRate, 'Tokens per second a load scheduler admitted.', (g) => g.acceptedTokensPerSecond);
  gauge(SCHEDULER_METRICS.loadMultiplier, 'The load multiplier in force (admitted ÷ incoming token rate); 0 in pass-through.', (g) => g.loadMultiplier);
  // Aperture's names, with policy_hash
  const tokenTotals = new Map<SchedulerGaugeSource, { incoming: number; accepted: number }>();
  const tbLabels = ['policy_name', 'policy_hash', 'component_id'] as const;
  const idOf = (s: SchedulerGaugeSource) => ({ policy_name: s.identity.policy_name, policy_hash: s.identity.policy_hash, component_id: s.identity.component_id });
  const tokenCounter = (name: string, help: string, pick: (t: { incoming: number; accepted: number }) => number, clear: (t: { incoming: number; accepted: number }) => void): Counter<(typeof tbLabels)[number]> =>
    single(registry, name, () => new Counter({
      name, help, labelNames: tbLabels, registers: [registry],
      collect() {
        for (const [source, totals] of tokenTotals) {
          const n = pick(totals);
          if (n > 0) this.inc(idOf(source), n);
          clear(totals);
        }
      },
    }));
  const incomingTokens = tokenCounter(APERTURE_SCHEDULER_METRICS.incomingTokens, 'Tokens of the flows arriving at a load scheduler.', (t) => t.incoming, (t) => { t.incoming = 0; });
  const acceptedTokens = tokenCounter(APERTURE_SCHEDULER_METRICS.acceptedTokens, 'Tokens of the flows a load scheduler admitted.', (t) => t.accepted, (t) => { t.accepted = 0; });
  const tbGauge = (name: string, help: string, pick: (g: SchedulerGauges) => number | undefined): void => {
    if (registry.getSingleMetric(name) !== undefined) return;
    new Gauge({
      name, help, labelNames: tbLabels, registers: [registry],
      collect() {
        this.reset();
        for (const s of sources) {
          const v = pick(s.gauges());
          if (v !== undefined) this.set(idOf(s), v);
        }
      },
    });
  };
  const latency = single(registry, APERTURE_SCHEDULER_METRICS.workloadLatency, () => new Summary({
    name: APERTURE_SCHEDULER_METRICS.workloadLatency, help: 'Durations of the flows a load scheduler admitted, from check to flow end, in milliseconds, per workload.',
    labelNames: [...tbLabels, 'workload_index'] as const, registers: [registry],
    percentiles: [0.5, 0.9, 0.99], maxAgeSeconds: 600, ageBuckets: 5,
  }));
  tbGauge(APERTURE_SCHEDULER_METRICS.loadMultiplier, 'The load multiplier in force; 0 in pass-through.', (g) => g.loadMultiplier);
  tbGauge(APERTURE_SCHEDULER_METRICS.fillRate, 'Tokens per second the load scheduler\'s token bucket fills at; 0 in pass-through.', (g) => g.fillRatePerSecond);
  tbGauge(APERTURE_SCHEDULER_METRICS.capacity, 'The most tokens the load scheduler\'s token bucket holds.', (g) => g.bucketCapacity);
  tbGauge(APERTURE_SCHEDULER_METRICS.available, 'Tokens in the load scheduler\'s token bucket (negative: owed by flows admitted ahead of the rate).', (g) => g.availableTokens);
  return {
    forScheduler(source) {
      sources.add(source);
      const { policy_name, component_id } = source.identity;
      // label children bound once per workload (and reason): the check path does no label hashing
      const counts = new Map<string, number>();
      pending.set(source, counts);
      const totals = { incoming: 0, accepted: 0 };
      tokenTotals.set(source, totals);
      const waits = new Map<string, Histogram.Internal<WlLabel>>();
      const rejections = new Map<string, Counter.Internal>();
      const waitOf = (workload_index: string): Histogram.Internal<WlLabel> => {
        let h = waits.get(workload_index);
        if (h === undefined) {
          h = wait.labels({ policy_name, component_id, workload_index });
          waits.set(workload_index, h);
        }
        return h;
      };
      return {
        flowEnded(workload_index, durationMs) {
          if (durationMs >= 0 && Number.isFinite(durationMs)) latency.observe({ ...idOf(source), workload_index }, durationMs);
        },
        incoming(tokens) {
          if (tokens > 0 && Number.isFinite(tokens)) totals.incoming += tokens;
        },
        accepted(workload_index, waitMs, tokens) {
          counts.set(workload_index, (counts.get(workload_index) ?? 0) + 1);
          if (tokens !== undefined && tokens > 0 && Number.isFinite(tokens)) totals.accepted += tokens;
          if (waitMs > 0) waitOf(workload_index).observe(waitMs);
        },
        rejected(workload_index, reason, waitMs) {
          const key = `${workload_index}\u0000${reason}`;
          let r = rejections.get(key);
          if (r === undefined) {
            r = rejected.labels({ policy_name, component_id, workload_index, reason });
            rejections.set(key, r);
          }
          r.inc();
          if (waitMs > 0) waitOf(workload_index).observe(waitMs);
        },
        close() {
          sources.delete(source);
          // what was counted still reaches the counter at the next scrape
          for (const [workload_index, n] of counts) {
            if (n > 0) accepted.inc({ policy_name, component_id, workload_index }, n);
          }
          pending.delete(source);
          const id = idOf(source);
          if (totals.incoming > 0) incomingTokens.inc(id, totals.incoming);
          if (totals.accepted > 0) acceptedTokens.inc(id, totals.accepted);
          tokenTotals.delete(source);
        },
      };
    },
  };
}
