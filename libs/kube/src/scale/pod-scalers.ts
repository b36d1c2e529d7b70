import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
// The agent's pod scalers: one per published auto_scale.pod_scaler component of its group. Every
// `periodMs` (and at once when a decision changes) each one takes or renews its object's Lease;
// the holder reads `/scale`, reports the configured and running replicas, and writes the desired
// replicas within the bounds and cooldowns; what it observed goes to `onObservation` when it changes
// (the agent reports it back to the controller). Disabled (`auto_scale.kubernetes.enabled: false`, or
// no Kubernetes API): the components are listed as off and nothing is read or written.
import { Counter, Gauge, type Registry } from 'prom-client';
import { silentLogger } from '../api-state.js';
import { apiStatus } from './api-status.js';
import { holdLease, type LeaseApi } from './lease-holder.js';
import type { ScaleApi } from './scale-api.js';
import { boundedReplicas, planScale, type ScaleHistory, type ScaleObject, type ScalePolicy } from './scale-plan.js';
import type { Logger } from '@sluice/telemetry/logger';

/** One published pod scaler and its latest desired replicas. */
export interface PodScalerSpec {
  policyName: string;
  componentId: string;
  object: ScaleObject;
  policy: ScalePolicy;
  /** From the latest decision; undefined before the first one. */
  desired?: number;
}

export interface PodScalerStatus {
  policy_name: string;
  component_id: string;
  object: ScaleObject;
  /** false: auto_scale.kubernetes is off on this agent (or it has no Kubernetes API). */
  enabled: boolean;
  /** This agent holds the object's Lease and writes its /scale. */
  leader: boolean;
  desired: number | null;
  configured: number | null;
  actual: number | null;
  last_action: string | null;
  last_error: string | null;
}

/** What the holder of an object's Lease last saw of its `/scale`, to report back. */
export interface PodScalerObservation {
  /** When this agent took the Lease (ms since the epoch). */
  leaderSinceMs: number;
  /** status.replicas. */
  actual: number;
  /** spec.replicas (after this agent's write, what it wrote). */
  configured: number;
  /** The latest decision within the bounds; undefined before the first one. */
  desired?: number;
}

export interface PodScalersOptions {
  enabled: boolean;
  /** Why it is off, when it is (logged and shown). */
  disabledReason?: string;
  scale?: ScaleApi;
  leases?: LeaseApi;
  /** This agent's identity in the Leases (its pod name). */
  identity: string;
  periodMs?: number;
  leaseDurationS?: number;
  registry?: Registry;
  logger?: Logger;
  now?: () => number;
  /**
   * Called when what this agent observes of a scaler's object changes: an observation while it
   * holds the Lease and reads `/scale`; undefined when it stops (Lease lost, read failed, the
   * scaler removed, shutdown). Never called twice in a row with the same value.
   */
  onObservation?: (spec: PodScalerSpec, observation: PodScalerObservation | undefined) => void;
}

interface Entry {
  spec: PodScalerSpec;
  history: ScaleHistory;
  leader: boolean;
  leaderSinceMs?: number;
  /** The observation last handed to onObservation, as JSON ('' for none). */
  reported: string;
  configured?: number;
  actual?: number;
  lastAction?: string;
  lastError?: string;
}

const key = (s: PodScalerSpec) => `${s.policyName}/${s.componentId}`;
const LABELS = ['policy_name', 'component_id', 'namespace', 'kind', 'name'] as const;

export class PodScalers implements Lifecycle {
  readonly name = 'pod-scalers';
  private readonly entries = new Map<string, Entry>();
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly replicas: Gauge<(typeof LABELS)[number] | 'type'>;
  private readonly leaderGauge: Gauge<(typeof LABELS)[number]>;
  private readonly actions: Counter<(typeof LABELS)[number] | 'direction' | 'result'>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly o: PodScalersOptions) {
    this.logger = o.logger ?? silentLogger;
    this.now = o.now ?? Date.now;
    const registers = o.registry ? [o.registry] : [];
    new Gauge({ name: 'pod_scaler_enabled', help: 'Whether this agent scales pods (auto_scale.kubernetes.enabled and a Kubernetes API).', registers, collect() { this.set(o.enabled ? 1 : 0); } });
    this.replicas = new Gauge({ name: 'pod_scaler_replicas', help: 'Replicas of the objects this agent scales, by type: actual (running), configured (/scale spec), desired (the policy\'s decision within bounds).', labelNames: [...LABELS, 'type'], registers });
    this.leaderGauge = new Gauge({ name: 'pod_scaler_leader', help: '1 when this agent holds the object\'s Lease and writes its /scale.', labelNames: [...LABELS], registers });
    this.actions = new Counter({ name: 'pod_scaler_actions_total', help: 'Scale changes by direction (out, in) and result (written, cooldown, dry_run, conflict, error).', labelNames: [...LABELS, 'direction', 'result'], registers });
  }

  get enabled(): boolean {
    return this.o.enabled;
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (!this.o.enabled) {
      this.logger.info('pod scaler off', { reason: this.o.disabledReason ?? 'auto_scale.kubernetes.enabled is false' });
      return;
    }
    const tick = () => {
      this.kick();
      this.timer = setTimeout(tick, this.o.periodMs ?? 5000);
      this.timer.unref?.();
    };
    this.timer = setTimeout(tick, 0);
  }

  readonly shutdown = onceShutdown('pod scalers', async () => {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    for (const e of this.entries.values()) this.observe(e, undefined);
  });

  /** The published pod scalers, level-triggered: the whole set each time. */
  set(specs: PodScalerSpec[]): void {
    const seen = new Set<string>();
    let changed = false;
    for (const spec of specs) {
      const k = key(spec);
      seen.add(k);
      const e = this.entries.get(k);
      if (e === undefined) {
        this.entries.set(k, { spec, history: {}, leader: false, reported: '' });
        changed = true;
      } else if (JSON.stringify(e.spec) !== JSON.stringify(spec)) {
        e.spec = spec;
        changed = true;
      }
    }
    for (const [k, e] of this.entries) {
      if (!seen.has(k)) {
        this.entries.delete(k);
        this.forget(e);
      }
    }
    if (changed) this.kick();
  }

  status(): PodScalerStatus[] {
    return [...this.entries.values()].map((e) => ({
      policy_name: e.spec.policyName,
      component_id: e.spec.componentId,
      object: e.spec.object,
      enabled: this.o.enabled,
      leader: e.leader,
      desired: e.spec.desired ?? null,
      configured: e.configured ?? null,
      actual: e.actual ?? null,
      last_action: e.lastAction ?? null,
      last_error: e.lastError ?? null,
    }));
  }

  /** One step of every scaler now (steps never overlap; a kick during one runs another after it). */
  kick(): Promise<void> {
    if (!this.o.enabled || this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        for (const e of [...this.entries.values()]) {
          if (this.stopped) break;
          await this.step(e);
        }
      } while (this.again && !this.stopped);
    })().finally(() => { this.running = undefined; });
    return this.running;
  }

  private labels(s: PodScalerSpec): Record<(typeof LABELS)[number], string> {
    return { policy_name: s.policyName, component_id: s.componentId, namespace: s.object.namespace, kind: s.object.kind, name: s.object.name };
  }

  private forget(e: Entry): void {
    const l = this.labels(e.spec);
    for (const type of ['actual', 'configured', 'desired']) this.replicas.remove({ ...l, type });
    this.leaderGauge.remove(l);
    this.observe(e, undefined);
  }

  /** Hands an observation on when it differs from the last one handed on. */
  private observe(e: Entry, o: PodScalerObservation | undefined): void {
    const json = o === undefined ? '' : JSON.stringify(o);
    if (json === e.reported) return;
    e.reported = json;
    try {
      this.o.onObservation?.(e.spec, o);
    } catch (err) {
      this.logger.warn('pod scaler observation not handed on', { policy: e.spec.policyName, component: e.spec.componentId, error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** What this agent sees of the object now, while it holds the Lease. */
  private observation(e: Entry): PodScalerObservation | undefined {
    if (!e.leader || e.leaderSinceMs === undefined || e.actual === undefined || e.configured === undefined) return undefined;
    const { desired, policy } = e.spec;
    return { leaderSinceMs: e.leaderSinceMs, actual: e.actual, configured: e.configured, ...(desired === undefined ? {} : { desired: boundedReplicas(desired, policy) }) };
  }

  private async step(e: Entry): Promise<void> {
    const { scale, leases } = this.o;
    if (!scale || !leases) return;
    const s = e.spec;
    const l = this.labels(s);
    try {
      const wasLeader = e.leader;
      e.leader = await holdLease(leases, s.object, this.o.identity, this.o.leaseDurationS ?? 15, this.now());
      this.leaderGauge.set(l, e.leader ? 1 : 0);
      if (!e.leader) {
        e.leaderSinceMs = undefined;
        this.observe(e, undefined);
        return;
      }
      if (!wasLeader || e.leaderSinceMs === undefined) e.leaderSinceMs = this.now();
      const r = await scale.read(s.object);
      e.configured = r.configured;
      e.actual = r.actual;
      this.observe(e, this.observation(e));
      this.replicas.set({ ...l, type: 'configured' }, r.configured);
      this.replicas.set({ ...l, type: 'actual' }, r.actual);
      const plan = planScale(s.desired, r.configured, s.policy, e.history, this.now());
      if (plan.action === 'none') {
        e.lastError = undefined;
        return;
      }
      this.replicas.set({ ...l, type: 'desired' }, plan.target);
      if (plan.action === 'hold') {
        if (e.lastAction !== `${plan.reason} ${plan.direction} ${plan.target}`) this.actions.inc({ ...l, direction: plan.direction, result: plan.reason });
        e.lastAction = `${plan.reason} ${plan.direction} ${plan.target}`;
        return;
      }
      try {
        await scale.write(s.object, plan.target, r.resourceVersion);
      } catch (err) {
        if (apiStatus(err) === 409) {
          this.actions.inc({ ...l, direction: plan.direction, result: 'conflict' });
          return;
        }
        throw err;
      }
      if (plan.direction === 'out') e.history.lastScaleOutMs = this.now();
      else e.history.lastScaleInMs = this.now();
      e.configured = plan.target;
      this.replicas.set({ ...l, type: 'configured' }, plan.target);
      this.actions.inc({ ...l, direction: plan.direction, result: 'written' });
      e.lastAction = `scaled ${plan.direction} from ${r.configured} to ${plan.target}`;
      e.lastError = undefined;
      this.observe(e, this.observation(e));
      this.logger.info('pod scaler wrote /scale', { policy: s.policyName, component: s.componentId, object: `${s.object.kind} ${s.object.namespace}/${s.object.name}`, from: r.configured, to: plan.target });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (e.lastError !== message) {
        this.logger.warn('pod scaler step failed; retried at the next step', { policy: s.policyName, component: s.componentId, error: message });
        this.actions.inc({ ...l, direction: 'none', result: 'error' });
      }
      e.lastError = message;
      // What was seen before the failure may no longer hold: the report goes until a step succeeds.
      this.observe(e, undefined);
    }
  }
}
