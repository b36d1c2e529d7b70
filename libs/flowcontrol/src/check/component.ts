import type { CheckResponse_RejectReason__Output as RejectReason } from '@sluice/proto';
import type { FlowLabels } from '@sluice/selectors';
import type { FlowReads } from '../labels/flow-reads.js';
import type { FlowRequest } from './flow-request.js';
import type { LimiterDetails } from '../limiters/limiter-details.js';

/** Where a component comes from: policy, its hash, the component's id in the circuit. */
export interface ComponentIdentity {
  readonly policy_name: string;
  readonly policy_hash: string;
  readonly component_id: string;
}

/**
 * What the engine knows of a kind of limiter, in one place: every limiter carries its kind, and
 * the engine's index (group order), its decisions (reject reason, denied status), the wire
 * encoder (details) and the header interest (reads) take it from there; no list of kinds is kept
 * anywhere else. The agent's registry of published kinds (libs/enforcement flow-kinds.ts) names
 * the kind of the limiter each published kind builds.
 */
export interface LimiterKind {
  /** The published kind (`rate_limiter`, `sampler`, `load_scheduler`). */
  readonly name: string;
  /** Limiters run by group, lowest first (samplers 0, rate limiters 1, schedulers 2); a group that rejects stops the flow. */
  readonly group: number;
  readonly rejectReason: RejectReason;
  /** HTTP status of a flow it turns away. */
  readonly deniedStatus: 403 | 429 | 503;
  /**
   * Which of Aperture's per-limiter counters its decisions count in: `rate_limiter_counter_total`,
   * `sampler_counter_total`, or `workload_requests_total` (per workload, the schedulers').
   */
  readonly counter: 'rate_limiter' | 'sampler' | 'workload';
  /** How its decision's details are written in a LimiterDecision. */
  readonly details: LimiterDetails;
  /** Adds what a limiter of this kind reads of a flow (labels, headers) beyond its selector. */
  reads(limiter: Limiter, into: FlowReads): void;
}

/** What the engine hands a limiter with the labels. */
export interface DecideContext {
  /** Now, in epoch milliseconds (one reading for the whole check). */
  readonly nowMs: number;
  /**
   * `nowMs` is a reading of epochNowMs (@sluice/tokenbucket), the real clock: a limiter on that
   * clock uses it rather than reading the clock again. Unset: the engine runs on another clock.
   */
  readonly realTime?: boolean;
  /** The caller's deadline in epoch milliseconds; undefined when there is none. */
  readonly deadlineMs: number | undefined;
  /**
   * The labels a flow's cost (a rate limiter's tokens label) may be read from: every label of
   * an SDK Check (the application sets them), only classifier outputs of an HTTP flow (its
   * request labels, baggage included, come from the client). Undefined: every label.
   */
  readonly costLabels?: Readonly<Record<string, string>>;
  /** Aborted when the caller goes away (its call was cancelled): a limiter that waits stops waiting. */
  readonly signal?: AbortSignal;
}

/** The answer of one limiter for one flow. */
export interface LimiterResult {
  readonly accepted: boolean;
  /** How long until the flow could pass (rejections), or how long it waited. */
  readonly waitMs: number;
  /** Set when the limiter did not apply because the flow lacks its label. */
  readonly keyNotFound?: boolean;
  /** Tokens taken; returned through `revert` when another limiter rejects. */
  readonly tokens?: number;
  /** The bucket / label value the decision is about. */
  readonly label?: string;
  readonly remaining?: number;
  readonly current?: number;
  /** Scheduler details. */
  readonly workloadIndex?: string;
  readonly priority?: number;
  /** The limiter failed (a slow or broken store) and let the flow through. */
  readonly failedOpen?: boolean;
}

/**
 * A limiter: a sampler (rejects with 403), a rate limiter (429) or a
 * scheduler (503), as its kind says. `decide` may answer synchronously (local state) or with
 * a promise (a distributed store); the engine bounds the wait by the
 * caller's deadline and fails open past it.
 */
export interface Limiter {
  readonly kind: LimiterKind;
  readonly identity: ComponentIdentity;
  decide(labels: FlowLabels, ctx: DecideContext): LimiterResult | Promise<LimiterResult>;
  /** Give back what an accepting decision took (another limiter rejected the flow). */
  revert?(result: LimiterResult, ctx: DecideContext): void;
  /** A flow this limiter admitted into `workloadIndex` ended after `durationMs` (a scheduler learns tokens per workload). */
  observeFlowDuration?(workloadIndex: string, durationMs: number): void;
}

/**
 * A classifier: reads the flow (labels, HTTP attributes) and answers labels
 * to add, or undefined. Its outputs win over the request's labels.
 */
export interface Classifier {
  readonly kind: 'classifier';
  readonly identity: { readonly policy_name: string; readonly policy_hash: string; readonly classifier_index: number };
  /** Labels it sets that stay out of the baggage an answer sets and out of telemetry (rules with `telemetry: false`). */
  readonly hiddenLabels?: ReadonlySet<string>;
  classify(labels: FlowLabels, flow: FlowRequest): Readonly<Record<string, string>> | undefined;
}

/** A flux meter: named in the check response of the flows it measures. */
export interface FluxMeter {
  readonly kind: 'flux_meter';
  readonly name: string;
}

export type FlowComponent = Limiter | Classifier | FluxMeter;

/** Where a component applies (the policy language's selector). */
export interface ComponentSelector {
  control_point: string;
  /** Default `any`: every service. */
  service?: string;
  /** Default `default`. A selector of another group is ignored by this agent's engine. */
  agent_group?: string;
  /** A label filter (JSON, as in the preview body); absent or `{}` matches every flow. */
  label_matcher?: unknown;
}
