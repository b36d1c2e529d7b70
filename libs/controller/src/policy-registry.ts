import type { Lifecycle } from '@sluice/lifecycle';
import { Backoff } from '@sluice/clients';
import { InvalidArgumentError, NotFoundError } from '@sluice/errors';
import { Reconciler } from '@sluice/jobs';
import { checkDynamicConfig, type DynamicConfig, type PublishedDecision } from '@sluice/policies';
import type { ControllerMetrics } from './metrics.js';
import { PolicyRejectedError, rejectionOf } from './policy-errors.js';

import type { CompiledPolicy, PolicyLanguage, PolicyProblem } from './policy-language.js';
import { injectQueryLabels, type QueryLabel } from './promql-labels.js';
import type { PromqlScheduler } from './promql-scheduler.js';
import type { ReportSource } from './pod-scaler-reports.js';
import type { Publisher } from './publisher.js';
import { RunningPolicy, type AlertSink, type PolicySource } from './running-policy.js';

/** What a source wants: a spec, compiled when it is valid, or the reason it is not. */
interface Desired {
  spec: unknown;
  compiled: CompiledPolicy | undefined;
  error: string | undefined;
}

/** A policy as the API shows it. */
export interface PolicyView {
  name: string;
  spec: unknown;
  hash: string;
  status: 'running' | 'failed';
  source: PolicySource;
  ignored: string[];
  last_error: string;
  components: string[];
  signals: Record<string, number | null>;
}

export interface DecisionView {
  policy_name: string;
  component_id: string;
  agent_group: string;
  key: string;
  decision: PublishedDecision;
}

export interface PolicyRegistryDeps {
  language: PolicyLanguage;
  namespace: string;
  publisher: Publisher;
  scheduler: PromqlScheduler;
  metrics: ControllerMetrics;
  /** `prometheus.labels`, added to every selector of every query. */
  queryLabels: readonly QueryLabel[];
  /** What the agents report back, read by the circuits (pod scalers' out-ports). */
  reports?: ReportSource;
  /** Where the alerts the circuits raise go (alerter components). */
  alerts?: AlertSink;
  logger?: { info(msg: string, meta?: Record<string, unknown>): void; warn(msg: string, meta?: Record<string, unknown>): void };
}

/** The JSON path of a PromQL component's query from its id (`root.3` → `spec.circuit.components[3]...`). */
export function queryStringPath(id: string): string {
  const m = /^root\.(\d+)$/.exec(id);
  return m === null ? `spec.circuit (component ${id}).query.promql.query_string` : `spec.circuit.components[${m[1]}].query.promql.query_string`;
}

/** Retries of a policy that failed to start or stop. */
const RETRY = { base_delay: '1s', multiplier: 1.6, jitter: 0.2, max_delay: '60s' };

/** Kubernetes first: a custom resource wins over an API policy of the same name. */
const PRECEDENCE: readonly PolicySource[] = ['kubernetes', 'api'];

/**
 * The policies the controller runs. Each source (the API store, the CR watcher) says
 * what it wants; `reconcile` brings the running policies to that, level-triggered:
 * a policy whose compiled hash is unchanged keeps running, a changed one is replaced
 * (its decisions and variable values carried over while its circuit catches up), and a
 * policy no source wants is stopped and its keys deleted.
 */
export class PolicyRegistry implements Lifecycle {
  private readonly desired: Record<PolicySource, Map<string, Desired>> = { api: new Map(), kubernetes: new Map() };
  private readonly running = new Map<string, RunningPolicy>();
  /** Dynamic configurations by policy name: a Policy resource's `dynamicConfig`, and what was posted to the API. */
  private dynamic: Record<PolicySource, Map<string, DynamicConfig>> = { api: new Map(), kubernetes: new Map() };
  /** One key a policy name: each is brought to what the sources want on its own, and retried when that fails. */
  private readonly queue: Reconciler<string>;
  /** Why a policy's last reconcile failed (until one succeeds). */
  private readonly failures = new Map<string, unknown>();
  private closed = false;

  constructor(private readonly deps: PolicyRegistryDeps) {
    this.queue = new Reconciler<string>({
      reconcile: (name) => this.reconcileName(name),
      retryDelays: () => new Backoff(RETRY),
      onError: (name, err, retryMs) => {
        this.deps.logger?.warn('policy not brought to its desired state; retrying', { policy: name, error: err instanceof Error ? err.message : String(err), retry_ms: retryMs });
      },
    });
  }

  /** Validates and compiles a spec (queries get `prometheus.labels`); throws PolicyRejectedError. */
  compile(name: string, spec: unknown): CompiledPolicy {
    let compiled: CompiledPolicy;
    try {
      compiled = this.deps.language.compilePolicy(name, spec);
    } catch (err) {
      throw rejectionOf(name, err);
    }
    if (this.deps.queryLabels.length === 0) return compiled;
    const promql = compiled.promql.map((q) => {
      try {
        return { ...q, query: injectQueryLabels(q.query, this.deps.queryLabels) };
      } catch (err) {
        throw new PolicyRejectedError(name, [{ path: queryStringPath(q.id), message: err instanceof Error ? err.message : String(err) }]);
      }
    });
    return { ...compiled, promql, createCircuit: () => compiled.createCircuit() };
  }

  /** A source wants this compiled policy. */
  set(source: PolicySource, name: string, spec: unknown, compiled: CompiledPolicy): void {
    this.desired[source].set(name, { spec, compiled, error: undefined });
  }

  /**
   * A source wants a spec that does not compile: the policy shows `failed` with the
   * error, and a version of it that compiled before keeps running.
   */
  setFailed(source: PolicySource, name: string, spec: unknown, error: string): void {
    const prev = this.desired[source].get(name);
    this.desired[source].set(name, { spec, compiled: prev?.compiled, error });
  }

  delete(source: PolicySource, name: string): boolean {
    return this.desired[source].delete(name);
  }

  /** Replaces everything a source wants (a resync). */
  replaceAll(source: PolicySource, entries: Map<string, { spec: unknown; compiled?: CompiledPolicy; error?: string }>): void {
    const m = this.desired[source];
    m.clear();
    for (const [name, e] of entries) m.set(name, { spec: e.spec, compiled: e.compiled, error: e.error });
  }

  desiredOf(source: PolicySource, name: string): { spec: unknown; hash: string | undefined } | undefined {
    const d = this.desired[source].get(name);
    return d === undefined ? undefined : { spec: d.spec, hash: d.compiled?.hash };
  }

  /** The names a source wants, sorted. */
  namesOf(source: PolicySource): string[] {
    return [...this.desired[source].keys()].sort();
  }

  has(name: string): boolean {
    return PRECEDENCE.some((s) => this.desired[s].has(name));
  }

  /**
   * Brings the running policies to what the sources want: every policy is queued, and this resolves
   * when the queue is empty; it rejects with the error of a policy that could not be brought there
   * (which stays queued for a retry).
   */
  async reconcile(): Promise<void> {
    const names = new Set([...this.running.keys(), ...this.desired.api.keys(), ...this.desired.kubernetes.keys()]);
    for (const name of names) this.queue.mark(name);
    await this.queue.idle();
    for (const name of names) if (this.failures.has(name)) throw this.failures.get(name);
  }

  private effective(name: string): { source: PolicySource; compiled: CompiledPolicy } | undefined {
    for (const source of PRECEDENCE) {
      const compiled = this.desired[source].get(name)?.compiled;
      if (compiled !== undefined) return { source, compiled };
    }
    return undefined;
  }

  private async reconcileName(name: string): Promise<void> {
    if (this.closed) return;
    try {
      const want = this.effective(name);
      const cur = this.running.get(name);
      if (want === undefined) {
        if (cur !== undefined) await this.stopPolicy(cur);
      } else if (cur === undefined || cur.compiled.hash !== want.compiled.hash) {
        await this.startPolicy(want.compiled, want.source, cur);
      }
      this.failures.delete(name);
    } catch (err) {
      this.failures.set(name, err);
      throw err;
    }
  }

  private async startPolicy(compiled: CompiledPolicy, source: PolicySource, previous: RunningPolicy | undefined): Promise<void> {
    const { namespace, publisher, scheduler, metrics, reports, alerts, logger } = this.deps;
    // Stop the old circuit (and its jobs) first: the new one registers jobs of the same names.
    if (previous !== undefined) await previous.shutdown();
    const next = new RunningPolicy(compiled, source, { namespace, publisher, scheduler, metrics, ...(reports ? { reports } : {}), ...(alerts ? { alerts } : {}), ...(logger ? { logger } : {}) }, previous?.carried());
    next.setDynamic(this.dynamicValues(compiled));
    this.running.set(compiled.name, next);
    next.start();
    if (previous !== undefined) for (const key of previous.keys) if (!next.keys.has(key)) publisher.remove(key);
    logger?.info(previous === undefined ? 'policy started' : 'policy replaced', { policy: compiled.name, hash: compiled.hash, source, components: compiled.components.length });
  }

  private async stopPolicy(p: RunningPolicy): Promise<void> {
    this.running.delete(p.name);
    await p.shutdown();
    for (const key of p.keys) this.deps.publisher.remove(key);
    this.deps.metrics.forgetPolicy(p.name);
    this.deps.logger?.info('policy stopped', { policy: p.name });
  }

  /** The policy as the API shows it; undefined when no source has it. */
  view(name: string): PolicyView | undefined {
    const run = this.running.get(name);
    for (const source of PRECEDENCE) {
      const d = this.desired[source].get(name);
      if (d === undefined) continue;
      const compiled = d.compiled;
      const failed = d.error !== undefined;
      return {
        name,
        spec: d.spec,
        hash: compiled?.hash ?? '',
        status: failed || compiled === undefined ? 'failed' : 'running',
        source,
        ignored: compiled?.ignored ?? [],
        last_error: d.error ?? run?.lastError() ?? this.deps.publisher.lastError() ?? '',
        components: compiled?.components.map((c) => c.component_id) ?? [],
        signals: run !== undefined && run.compiled.hash === compiled?.hash ? run.currentSignals() : {},
      };
    }
    return undefined;
  }

  list(): PolicyView[] {
    const names = [...new Set([...this.desired.kubernetes.keys(), ...this.desired.api.keys()])].sort();
    return names.map((n) => this.view(n)).filter((v): v is PolicyView => v !== undefined);
  }

  countByStatus(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const v of this.list()) counts.set(v.status, (counts.get(v.status) ?? 0) + 1);
    return counts;
  }

  /** Decisions of one kind currently published (or about to be), in policy and component order. */
  decisions(kind: PublishedDecision['kind']): DecisionView[] {
    const out: DecisionView[] = [];
    for (const name of [...this.running.keys()].sort()) {
      const run = this.running.get(name)!;
      for (const [id, decision] of [...run.currentDecisions()].sort(([a], [b]) => a.localeCompare(b))) {
        if (decision.kind !== kind) continue;
        const key = run.decisionKeyOf(id);
        const component = run.component(id);
        if (key === undefined || component === undefined) continue;
        out.push({ policy_name: name, component_id: id, agent_group: component.agent_group, key, decision });
      }
    }
    return out;
  }

  /** Sets the value of a `variable` component's signal; the circuit runs at once. */
  setVariable(name: string, signal: string, value: number): void {
    const run = this.running.get(name);
    if (run === undefined) throw new NotFoundError(`no running policy named ${JSON.stringify(name)}`);
    if (!run.hasVariable(signal)) {
      throw new NotFoundError(`policy ${JSON.stringify(name)} has no variable component writing signal ${JSON.stringify(signal)}`);
    }
    if (!Number.isFinite(value)) throw new InvalidArgumentError('value must be a finite number', 'value');
    run.setVariable(signal, value);
  }

  /** The dynamic configuration in effect: the resource's `dynamicConfig`, with the members posted to the API over it. */
  dynamicConfigOf(name: string): DynamicConfig | undefined {
    const k = this.dynamic.kubernetes.get(name);
    const a = this.dynamic.api.get(name);
    if (k === undefined && a === undefined) return undefined;
    return { ...k, ...a };
  }

  /** The compiled policy a dynamic configuration is checked against (what runs, else what compiled last). */
  private compiledOf(name: string): CompiledPolicy | undefined {
    return this.running.get(name)?.compiled ?? this.effective(name)?.compiled;
  }

  /**
   * Problems of a dynamic configuration for a policy (a member no component names, a value of the
   * wrong type), paths under `root`; NotFoundError when no source has the policy.
   */
  checkDynamicConfig(name: string, doc: unknown, root = 'dynamic_config'): PolicyProblem[] {
    if (!this.has(name)) throw new NotFoundError(`no policy named ${JSON.stringify(name)}`);
    const compiled = this.compiledOf(name);
    if (compiled === undefined) return [{ path: 'name', message: `policy ${JSON.stringify(name)} does not compile: its dynamic configuration cannot be checked` }];
    return checkDynamicConfig(doc, compiled.configKeys, root).problems;
  }

  private dynamicValues(compiled: CompiledPolicy): Map<string, unknown> {
    return checkDynamicConfig(this.dynamicConfigOf(compiled.name) ?? {}, compiled.configKeys).values;
  }

  /**
   * Sets (or with undefined, removes) what a source says of a policy's dynamic configuration and
   * applies the result to the running policy at once, without publishing it again. Members that
   * do not fit the running version are left out (the API refuses them before they get here).
   */
  setDynamicConfig(source: PolicySource, name: string, doc: DynamicConfig | undefined): void {
    if (doc === undefined) this.dynamic[source].delete(name);
    else this.dynamic[source].set(name, doc);
    const run = this.running.get(name);
    if (run !== undefined) run.setDynamic(this.dynamicValues(run.compiled));
  }

  /** Replaces every dynamic configuration a source holds (a resync). */
  replaceDynamicConfigs(source: PolicySource, docs: Map<string, DynamicConfig>): void {
    const names = new Set([...this.dynamic[source].keys(), ...docs.keys()]);
    this.dynamic[source] = new Map(docs);
    for (const name of names) {
      const run = this.running.get(name);
      if (run !== undefined) run.setDynamic(this.dynamicValues(run.compiled));
    }
  }

  /** Stops every circuit and job; published keys stay on the lease until it is revoked. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await this.queue.shutdown();
    await Promise.all([...this.running.values()].map((p) => p.shutdown()));
    this.running.clear();
  }
}
