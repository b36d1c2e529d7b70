import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import { configKey, decisionKey, withDynamicValues, type PublishedComponent, type PublishedDecision, type RaisedAlert } from '@sluice/policies';
import type { ControllerMetrics } from './metrics.js';
import type { ReportSource } from './pod-scaler-reports.js';
import type { Circuit, CompiledPolicy } from './policy-language.js';
import type { PromqlHandle, PromqlScheduler } from './promql-scheduler.js';
import type { Publisher } from './publisher.js';

export type PolicySource = 'api' | 'kubernetes';

/** Takes the alerts a circuit raises at each tick. */
export interface AlertSink {
  raise(alert: RaisedAlert): void;
}

export interface RunningPolicyDeps {
  namespace: string;
  publisher: Publisher;
  scheduler: PromqlScheduler;
  metrics: ControllerMetrics;
  /** What the agents report back (pod scalers' replicas); without it those signals are invalid. */
  reports?: ReportSource;
  /** Where the alerts the circuit raises go (alerter components); without it they are dropped. */
  alerts?: AlertSink;
  logger?: { warn(msg: string, meta?: Record<string, unknown>): void };
}

/** What a replaced policy hands to its successor: decisions and variable values. */
export interface Carried {
  decisions: ReadonlyMap<string, PublishedDecision>;
  variables: ReadonlyMap<string, number>;
}

/**
 * One compiled policy at work: its components published, its PromQL queries scheduled,
 * its circuit evaluated every evaluation interval (the first evaluation at once), and
 * each decision published when it changes. A component without a decision from this
 * tick keeps its last one.
 */
export class RunningPolicy implements Lifecycle {
  readonly keys = new Set<string>();
  private readonly components = new Map<string, PublishedComponent>();
  private readonly decisions = new Map<string, PublishedDecision>();
  private readonly variables = new Map<string, number>();
  /** The dynamic configuration's checked values by key. */
  private dynamic: ReadonlyMap<string, unknown> = new Map();
  /** The configuration JSON published for each component (with its dynamic values). */
  private readonly publishedConfigs = new Map<string, string>();
  private perGroup = new Map<string, number>();
  private circuit: Circuit | undefined;
  private promql: PromqlHandle | undefined;
  private timer: NodeJS.Timeout | undefined;
  private signals: Record<string, number | null> = {};
  private tickError: string | undefined;
  /** A configuration or decision the published contract refused (not written). */
  private contractError: string | undefined;
  private stopped = false;

  constructor(readonly compiled: CompiledPolicy, readonly source: PolicySource, private readonly deps: RunningPolicyDeps, carried?: Carried) {
    for (const c of compiled.components) this.components.set(c.component_id, c);
    for (const name of compiled.variables) {
      const v = carried?.variables.get(name);
      if (v !== undefined) this.variables.set(name, v);
    }
    for (const [id, d] of carried?.decisions ?? []) {
      if (this.components.get(id)?.kind === d.kind) this.decisions.set(id, d);
    }
  }

  get name(): string {
    return this.compiled.name;
  }

  async start(): Promise<void> {
    const { publisher, namespace } = this.deps;
    // Each configuration says how many components the policy has in its group: an agent enforces
    // none of a policy's new version until it holds all of them (a policy too large for one etcd
    // transaction is written in several).
    const perGroup = this.perGroup;
    for (const c of this.components.values()) perGroup.set(c.agent_group, (perGroup.get(c.agent_group) ?? 0) + 1);
    for (const c of this.components.values()) {
      this.keys.add(configKey(namespace, c.agent_group, this.name, c.component_id));
      this.publishConfig(c);
      // Its decision key is owned from now on: until the circuit decides, what etcd holds stays.
      const decision = this.decisionKeyOf(c.component_id)!;
      this.keys.add(decision);
      publisher.claim(decision, 'decision');
    }
    for (const [id, d] of this.decisions) this.publishDecision(id, d);
    this.circuit = this.compiled.createCircuit();
    this.promql = this.deps.scheduler.add(this.name, this.compiled.promql);
    this.tick();
    const every = Math.max(1, this.compiled.evaluationIntervalMs);
    this.timer = setInterval(() => this.tick(), every);
  }

  /** Publishes a component's configuration with its dynamic values, unless etcd already has that. */
  private publishConfig(c: PublishedComponent): void {
    const key = configKey(this.deps.namespace, c.agent_group, this.name, c.component_id);
    const component = { ...withDynamicValues(c, this.compiled.configKeys, this.dynamic), policy_components: this.perGroup.get(c.agent_group) } as PublishedComponent;
    const value = JSON.stringify(component);
    if (this.publishedConfigs.get(c.component_id) === value) return;
    this.publishedConfigs.set(c.component_id, value);
    // The shared validator of the published contract checks it first; a refused value is not written.
    const refused = this.deps.publisher.setComponent(key, component);
    if (refused !== undefined) this.contractError ??= `published contract: ${refused}`;
  }

  /**
   * Applies the dynamic configuration (values by key, checked): a variable (or bool variable) takes
   * a value that changed, a component one of its members reads is published again (only that one), and the
   * circuit runs at once with it.
   */
  setDynamic(values: ReadonlyMap<string, unknown>): void {
    const previous = this.dynamic;
    this.dynamic = values;
    for (const k of this.compiled.configKeys) {
      if (!('variable' in k.target)) continue;
      const v = values.get(k.key);
      // A bool variable's key holds a boolean: true is 1, false 0.
      const n = typeof v === 'boolean' ? Number(v) : v;
      if (typeof n === 'number' && !Object.is(previous.get(k.key), v)) this.variables.set(k.target.variable, n);
    }
    if (this.circuit === undefined) return;
    for (const c of this.components.values()) this.publishConfig(c);
    this.tick();
  }

  /** Stops evaluating; the caller removes the keys it no longer wants published. */
  readonly shutdown = onceShutdown('policy', async () => {
    this.stopped = true;
    this.deps.metrics.signals.forgetPolicy(this.name);
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.promql?.shutdown();
  });

  carried(): Carried {
    return { decisions: new Map(this.decisions), variables: new Map(this.variables) };
  }

  hasVariable(signal: string): boolean {
    return this.compiled.variables.includes(signal);
  }

  /** Sets a variable and evaluates the circuit at once, so the new value takes effect now. */
  setVariable(signal: string, value: number): void {
    this.variables.set(signal, value);
    this.tick();
  }

  variableValues(): ReadonlyMap<string, number> {
    return this.variables;
  }

  currentDecisions(): ReadonlyMap<string, PublishedDecision> {
    return this.decisions;
  }

  component(id: string): PublishedComponent | undefined {
    return this.components.get(id);
  }

  currentSignals(): Record<string, number | null> {
    return this.signals;
  }

  lastError(): string | undefined {
    return this.tickError ?? this.contractError ?? this.promql?.lastError();
  }

  tick(): void {
    if (this.stopped || this.circuit === undefined) return;
    const { metrics } = this.deps;
    try {
      const reports = this.deps.reports?.signalsOf(this.name, this.components.values());
      const out = this.circuit.tick(Date.now(), { promql: this.promql?.values ?? new Map(), variables: this.variables, dynamic: this.dynamic, ...(reports ? { reports } : {}) });
      this.signals = out.signals;
      metrics.signals.record(this.name, out.signals, this.circuit.signalWriters);
      if (out.alerts !== undefined && this.deps.alerts !== undefined) for (const a of out.alerts) this.deps.alerts.raise(a);
      for (const [id, d] of out.decisions) {
        if (!this.components.has(id)) continue;
        this.decisions.set(id, d);
        this.publishDecision(id, d);
      }
      this.tickError = undefined;
      metrics.circuitTicks.inc({ policy_name: this.name });
    } catch (err) {
      // A circuit that throws keeps its last decisions; the error shows on the policy.
      const message = err instanceof Error ? err.message : String(err);
      if (this.tickError === undefined) this.deps.logger?.warn('circuit evaluation failed', { policy: this.name, error: message });
      this.tickError = `circuit: ${message}`;
      metrics.circuitTickErrors.inc({ policy_name: this.name });
    }
  }

  decisionKeyOf(id: string): string | undefined {
    const c = this.components.get(id);
    return c === undefined ? undefined : decisionKey(this.deps.namespace, c.agent_group, this.name, id);
  }

  private publishDecision(id: string, d: PublishedDecision): void {
    const key = this.decisionKeyOf(id);
    if (key === undefined) return;
    this.keys.add(key);
    const refused = this.deps.publisher.setDecision(key, d);
    if (refused !== undefined) this.contractError = `published contract: ${refused}`;
  }
}
