import type { Lifecycle } from '@sluice/lifecycle';
import { flowKind, localTokenBucketStore, type LiveComponent } from '@sluice/enforcement';
import { Engine, type CheckDecision, type ComponentSelector, type FlowComponent } from '@sluice/flowcontrol';
import type { CompiledPolicy, PublishedComponent, PublishedDecision } from '@sluice/policies';
import { LoadScheduler, ManualClock } from '@sluice/scheduler';
import type { SampleFlow } from './flows.js';

/** What the sandbox replays a policy's flow-control components at. */
export interface SandboxTarget {
  controlPoint: string;
  agentGroup: string;
  /** `any`: only components of every service apply (samples carry no services); else this service's too. */
  service: string;
}

/** One component of the policy in the sandbox, and what it runs with. */
export interface SandboxComponent {
  component_id: string;
  kind: PublishedComponent['kind'];
  /** The decision it replays with (from the policy's circuit); null: none, it lets every flow through as an agent does before its first decision. */
  decision: PublishedDecision | null;
  note?: string;
}

/** The scheduler a flow fell in, and its place there. */
export interface WorkloadMatch {
  component_id: string;
  workload: string;
  priority?: number;
}

/** What the policy would have done with one flow. */
export interface FlowOutcome {
  arrivalMs: number;
  agent?: string;
  /** Its labels after the policy's classifiers. */
  labels: Readonly<Record<string, string>>;
  accepted: boolean;
  /** `REJECT_REASON_RATE_LIMITED`, ...; `REJECT_REASON_NONE` when accepted. */
  rejectReason: string;
  /** The component that turned it away. */
  rejectedBy?: string;
  workloads: WorkloadMatch[];
}

/** Stands in for a queued flow's decision until it settles (always replaced). */
const FAILED_CHECK: Omit<CheckDecision, 'labels'> = {
  controlPoint: '', services: [], addedLabels: undefined, startMs: 0, endMs: 0, accepted: true, rejectReason: 'REJECT_REASON_NONE',
  deniedStatus: 0, waitMs: 0, limiters: [], classifiers: [], fluxMeters: [],
};

/** Circuit ticks run to get the decisions (components behind holders or delays need more than one). */
const CIRCUIT_TICKS = 5;

/**
 * The decisions the policy's circuit gives its flow-control components from its constants,
 * variables and the dynamic configuration; PromQL inputs are invalid here (nothing is queried).
 */
export function circuitDecisions(compiled: CompiledPolicy, startMs: number, dynamic?: ReadonlyMap<string, unknown>): Map<string, PublishedDecision> {
  const circuit = compiled.createCircuit();
  const decisions = new Map<string, PublishedDecision>();
  const inputs = { promql: new Map<string, number | undefined>(), variables: new Map<string, number>(), ...(dynamic ? { dynamic } : {}) };
  for (let i = 0; i < CIRCUIT_TICKS; i++) {
    const out = circuit.tick(startMs + i * compiled.evaluationIntervalMs, inputs);
    for (const [id, d] of out.decisions) decisions.set(id, d);
  }
  return decisions;
}

/** Kinds that schedulers are: matched in an engine of their own; admitted only where said below. */
const MATCHING_ONLY = new Set<string>(['load_scheduler', 'quota_scheduler']);
/** How long past the last sample the sandbox clock runs, so that every queued flow is settled. */
const SETTLE_MS = 60_000;

function selectorsAt(p: PublishedComponent, target: SandboxTarget): ComponentSelector[] {
  return p.selectors
    .filter((s) => s.control_point === target.controlPoint && (s.agent_group ?? p.agent_group) === target.agentGroup)
    .map((s) => ({
      control_point: s.control_point,
      agent_group: s.agent_group ?? p.agent_group,
      ...(s.service !== undefined ? { service: s.service } : {}),
      ...(s.label_matcher !== undefined ? { label_matcher: s.label_matcher } : {}),
    }));
}

/**
 * A policy's flow-control components built by the agent's own builders (the enforcement's
 * registry of kinds) into an engine of their own, with local token buckets, on a clock that is
 * the flows' arrival times: replaying live samples through it gives what the policy would do,
 * touching no shared bucket and publishing nothing. Rate limiters and samplers run with the
 * circuit's decisions. Schedulers run in pass-through in an engine of their own with the
 * classifiers, so that every flow, one a limiter turned away included, says which workload it
 * matches and its priority; a load scheduler whose load multiplier the circuit gives (a constant,
 * a variable) also admits, queues and turns flows away on the sandbox clock, of the sampled
 * flows' token rate.
 */
export class PolicySandbox implements Lifecycle {
  readonly components: SandboxComponent[] = [];
  private readonly engine: Engine;
  /** The classifiers and schedulers alone: every flow reaches the schedulers, even one a limiter turned away. */
  private readonly matching: Engine;
  private hasSchedulers = false;
  private readonly live: LiveComponent[] = [];
  private readonly admitting: LoadScheduler[] = [];
  private readonly clock: ManualClock;
  private readonly workloadNames = new Map<string, string[]>();

  /** `startMs`: the sandbox clock's start, no later than the first sample. */
  constructor(compiled: CompiledPolicy, readonly target: SandboxTarget, decisions: ReadonlyMap<string, PublishedDecision>, startMs = 0) {
    this.clock = new ManualClock(startMs);
    const now = (): number => this.clock.now();
    // a queued flow settles when the sandbox clock passes its time, never by a timer of this process
    this.engine = new Engine({ agentGroup: target.agentGroup, now, asyncDecisionTimeoutMs: 3_600_000 });
    this.matching = new Engine({ agentGroup: target.agentGroup, now });
    for (const p of compiled.components) {
      const selectors = selectorsAt(p, target);
      if (selectors.length === 0) continue;
      const entry = flowKind(p.kind);
      const live = entry.build(p, { tokenBucketStore: localTokenBucketStore });
      this.live.push(live);
      const id = p.component_id;
      const decision = decisions.get(id);
      const info: SandboxComponent = { component_id: id, kind: p.kind, decision: null };
      let admitting: FlowComponent | undefined;
      if (p.kind === 'load_scheduler' && decision?.kind === 'load_scheduler' && !decision.pass_through) {
        live.setDecision(undefined);
        const s = new LoadScheduler({ identity: { policy_name: p.policy_name, policy_hash: p.policy_hash, component_id: id }, parameters: p.parameters, clock: this.clock, decision });
        this.admitting.push(s);
        admitting = s;
        info.decision = decision;
        info.note = `admission replayed with the circuit's load multiplier ${decision.load_multiplier} of the sampled flows' own token rate (flows not sampled are not counted)`;
      } else if (MATCHING_ONLY.has(p.kind)) {
        live.setDecision(undefined);
        info.note = 'matching only: which workload each flow falls in and its priority; admission depends on a load multiplier the circuit gives only with live inputs';
      } else if (entry.limiter !== undefined) {
        if (decision === undefined) info.note = 'no decision from the circuit without live inputs (PromQL): it lets every flow through, as an agent does before its first decision';
        live.setDecision(decision);
        info.decision = decision ?? null;
      } else {
        live.setDecision(undefined);
      }
      if (p.kind === 'load_scheduler') this.workloadNames.set(id, (p.parameters.workloads ?? []).map((w, i) => w.name ?? String(i)));
      this.components.push(info);
      if (live.component === undefined) continue;
      const matchingOnly = MATCHING_ONLY.has(p.kind);
      this.hasSchedulers ||= matchingOnly;
      if (!matchingOnly) for (const s of selectors) this.engine.register(live.component, s);
      if (admitting !== undefined) for (const s of selectors) this.engine.register(admitting, s);
      if (p.kind === 'classifier' || matchingOnly) {
        // a classifier is stateless: the matching engine gets one of its own
        const c = matchingOnly ? live : entry.build(p, { tokenBucketStore: localTokenBucketStore });
        if (c.component !== undefined) for (const s of selectors) this.matching.register(c.component, s);
      }
    }
  }

  /** Replays the flows in arrival order; answers each one's outcome. */
  async replay(flows: readonly SampleFlow[]): Promise<FlowOutcome[]> {
    const ordered = [...flows].sort((a, b) => a.arrivalMs - b.arrivalMs);
    const services = this.target.service === 'any' ? [] : [this.target.service];
    const out: FlowOutcome[] = [];
    const queued: Promise<void>[] = [];
    for (const f of ordered) {
      // the clock moves to the flow's arrival: flows queued by a scheduler before it are settled on the way
      await this.clock.run(Math.max(0, f.arrivalMs - this.clock.now()));
      const request = {
        controlPoint: this.target.controlPoint, labels: f.labels, services,
        ...(f.http !== undefined ? { type: 'http' as const, http: f.http } : { type: 'feature' as const }),
      };
      const m = this.hasSchedulers ? await this.matching.check(request) : undefined;
      const d = this.engine.check(request);
      if (d instanceof Promise) {
        const slot = out.length;
        out.push(this.outcome(f, { ...FAILED_CHECK, labels: f.labels }, m));
        queued.push(d.then((x) => { out[slot] = this.outcome(f, x, m); }));
      } else {
        out.push(this.outcome(f, d, m));
      }
    }
    if (queued.length > 0) {
      await this.clock.run(SETTLE_MS);
      await Promise.all(queued);
    }
    return out;
  }

  /** Ends the components (a scheduler's timers). */
  async shutdown(): Promise<void> {
    await Promise.all([...this.live.map((l) => l.shutdown?.()), ...this.admitting.map((s) => s.shutdown())]);
  }

  private outcome(f: SampleFlow, d: CheckDecision, m: CheckDecision | undefined): FlowOutcome {
    const rejecting = d.accepted ? undefined : d.limiters.find((l) => !l.result.accepted);
    const workloads: WorkloadMatch[] = [];
    for (const l of m?.limiters ?? []) {
      const idx = l.result.workloadIndex;
      if (idx === undefined) continue;
      const names = this.workloadNames.get(l.identity.component_id);
      const name = idx === 'default' ? 'default' : names?.[Number(idx)] ?? idx;
      workloads.push({ component_id: l.identity.component_id, workload: name, ...(l.result.priority !== undefined ? { priority: l.result.priority } : {}) });
    }
    return {
      arrivalMs: f.arrivalMs,
      ...(f.agent !== undefined ? { agent: f.agent } : {}),
      labels: d.labels,
      accepted: d.accepted,
      rejectReason: d.rejectReason,
      ...(rejecting !== undefined ? { rejectedBy: `${rejecting.kind.name} ${rejecting.identity.component_id}` } : {}),
      workloads,
    };
  }
}
