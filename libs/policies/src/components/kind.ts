import type { Static, TSchema } from '@sinclair/typebox';
import type { PublishedComponent, PublishedDecision, PublishedSelector } from '../published.js';
import type { PublishedKind } from '../published/common.js';
import type { InPort, OutPort } from '../schema/ports.js';
import type { Selector } from '../schema/selector.js';
import type { DynamicTarget, DynamicValueType } from '../dynamic-config.js';

/** A signal's value in one tick: a float, or null when invalid (NaN is stored as null). */
export type SignalValue = number | null;

/** Values the agents report back for one component, by out-port name; absent or null is invalid. */
export type ReportedSignals = Readonly<Record<string, number | null>>;

/** What a tick of the circuit receives from the controller. */
export interface TickInputs {
  nowMs: number;
  /** The latest result of each PromQL component, by component id; undefined or absent is invalid. */
  promql: ReadonlyMap<string, number | undefined>;
  /** Values set through the API for variable components, by signal name. */
  variables: ReadonlyMap<string, number>;
  /** What the agents reported back (a pod scaler's replicas), by component id; absent is invalid. */
  reports?: ReadonlyMap<string, ReportedSignals>;
  /** The policy's dynamic configuration, checked and typed, by key (the keys a compile step declared with `configKey`). */
  dynamic?: ReadonlyMap<string, unknown>;
}

/** Severities an alert may have (Alertmanager label `severity`). */
export const ALERT_SEVERITIES = ['info', 'warn', 'crit'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/**
 * An alert a component raises at one tick (an alerter whose signal is valid and non-zero). It stays
 * active while raised again, and resolves `resolveTimeoutMs` after the last tick that raised it.
 */
export interface RaisedAlert {
  /** Alertmanager label `alertname`. */
  readonly name: string;
  readonly severity: AlertSeverity;
  readonly resolveTimeoutMs: number;
  /** Alertmanager label `alert_channels` (comma-separated) when not empty. */
  readonly channels: readonly string[];
  /** `policy_name`, `component_id`, `type` and the labels of the policy's alerter. */
  readonly labels: Readonly<Record<string, string>>;
}

/** The live part of a compiled component: one per circuit, so it may keep state between ticks. */
export interface ComponentRuntime {
  /** `inputs` in the order the compile step declared them; answers the outputs in declared order. */
  tick(inputs: readonly SignalValue[], tick: TickInputs): { outputs: readonly SignalValue[]; decision?: PublishedDecision; alerts?: readonly RaisedAlert[] };
  /**
   * Kinds that delay their outputs (`delaysOutputs`): this tick's outputs, answered before any
   * component of the circuit runs (they depend on earlier ticks or on what the agents reported,
   * never on this tick's inputs); the outputs `tick` answers are then not used.
   */
  outputsAtStart?(tick: TickInputs): readonly SignalValue[];
}

/** Bounds a constant in-port must respect (checked at compile time with the port's path). */
export interface PortBounds {
  minimum?: number;
  maximum?: number;
  /** Refuse NaN (an invalid constant). */
  finite?: boolean;
}

/** What a kind's compile step reports to the compiler. */
export interface KindContext {
  readonly policyName: string;
  readonly policyHash: string;
  /** `root.<i>`. */
  readonly componentId: string;
  /** JSON path of the kind's object, e.g. `spec.circuit.components[0].flow_control.rate_limiter`. */
  readonly path: string;
  problem(path: string, message: string): void;
  /** Declare an in-port (read in declaration order at each tick); `port` undefined reads as invalid. */
  input(port: InPort | undefined, path: string, bounds?: PortBounds): void;
  /** Declare an out-port (answered in declaration order); `port` undefined means not connected. */
  output(port: OutPort | undefined, path: string): void;
  /** Check selectors (label filters compiled) and group them by agent group. */
  selectors(selectors: readonly Selector[], path: string): Map<string, PublishedSelector[]>;
  /** Milliseconds of a duration the schema already checked. */
  durationMs(text: string | undefined, fallback: string): number;
  publish(component: PublishedComponent): void;
  promql(query: string, evaluationIntervalMs: number): void;
  variable(signalName: string): void;
  /** The circuit's evaluation interval: kinds that count ticks (Aperture's windows) divide by it. */
  readonly evaluationIntervalMs: number;
  /** Inside a nested circuit: its port mapping (in the enclosing circuit's signals); undefined at the root. */
  readonly nestedPorts?: NestedPorts;
  /**
   * Declare a dynamic-configuration key this component reads (`config_key`, `dry_run_config_key`, …);
   * `path` is the member naming it. An undefined or empty key declares nothing.
   */
  configKey(key: string | undefined, path: string, type: DynamicValueType, target: DynamicTarget): void;
}

/** A nested circuit's `in_ports_map` and `out_ports_map`, by port name, with the JSON path of each entry. */
export interface NestedPorts {
  readonly in: ReadonlyMap<string, { port: InPort; path: string }>;
  readonly out: ReadonlyMap<string, { port: OutPort; path: string }>;
}

export interface KindCompiled {
  createRuntime(): ComponentRuntime;
}

/** One kind of circuit component: its place in a Component, its schema, its compile step and its tick. */
export interface ComponentKind {
  /** Members leading to it inside a Component: `['variable']` or `['flow_control', 'rate_limiter']`. */
  readonly path: readonly string[];
  readonly schema: TSchema;
  /**
   * Whether its outputs at a tick depend only on earlier ticks or on what the agents reported, not
   * on this tick's inputs (its runtime answers them in `outputsAtStart`): edges out of it do not
   * order the circuit, so a loop through it (its output feeding its own input) is no cycle.
   */
  readonly delaysOutputs?: boolean;
  /**
   * Whether it keeps state from tick to tick (an integrator, a holder, a moving average): a loop of
   * signals through it has a meaning, and is run as Aperture runs it (see graph.ts); a loop through
   * stateless kinds only is refused.
   */
  readonly keepsState?: boolean;
  /**
   * The published contracts (libs/policies published/) of what its compile step publishes for the
   * agents (`ctx.publish`): the published kinds, their types and the validator both sides use are
   * read from here (published/kinds.ts), so a flow-control kind is registered once, in COMPONENT_KINDS.
   */
  readonly publishes?: readonly PublishedKind[];
  compile(spec: unknown, ctx: KindContext): KindCompiled;
}

/** A kind made by defineKind: the contracts it publishes keep their types. */
export type DefinedKind<P extends readonly PublishedKind[]> = Omit<ComponentKind, 'publishes'> & { readonly publishes: P };

/**
 * The declared type of a kind that publishes for the agents (`export const xKind: Publishing<typeof
 * xContract> = defineKind({ publishes: [xContract], … })`): declared, not inferred, since the types
 * its compile step publishes are read from it.
 */
export type Publishing<C extends PublishedKind> = DefinedKind<readonly [C]>;

/** Define a kind with its spec typed from its schema (and the contracts it publishes typed from theirs). */
export function defineKind<S extends TSchema, const P extends readonly PublishedKind[] = readonly []>(kind: {
  path: readonly string[];
  schema: S;
  delaysOutputs?: boolean;
  keepsState?: boolean;
  publishes?: P;
  compile(spec: Static<S>, ctx: KindContext): KindCompiled;
}): DefinedKind<P> {
  return { ...kind, publishes: kind.publishes ?? [] } as unknown as DefinedKind<P>;
}

/** NaN, Infinity-free arithmetic helpers: a non-finite NaN becomes invalid. */
export function signal(value: number): SignalValue {
  return Number.isNaN(value) ? null : value;
}
