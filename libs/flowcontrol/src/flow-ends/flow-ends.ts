import { Counter, type Registry } from 'prom-client';
import type { FluxMeter, Limiter } from '../check/component.js';
import type { CheckDecision } from '../check/decision.js';
import { isMeasuringFluxMeter } from '../flux-meters/flux-meter.js';
import type { FlowOutcome, FluxMeterHistogram } from '../flux-meters/flux-meter-metrics.js';
import { InflightFlows, type AdmittedWorkload, type InflightFlowsOptions } from './inflight-flows.js';
import { readEnvoyLog, type LogAttributes } from './envoy-access-log.js';
import { readSdkSpan, SDK_CHECK_RESPONSE_ATTRIBUTE, type ReceivedSpan, type SdkSpanReading } from './sdk-flow-span.js';

export const FLOW_ENDS_METRIC = 'flow_ends_total';

export type FlowEndSource = 'check' | 'flow_end' | 'otlp' | 'access_log';
export type FlowEndResult = 'recorded' | 'unknown' | 'expired' | 'malformed' | 'not_aperture' | 'out_of_range' | 'unselected';

/**
 * Longest flow duration recorded by default: 1 hour. A flow end reporting more (a FlowEnd
 * duration, an SDK span's times) is not recorded and is counted as `out_of_range`: a flux
 * meter's sum must not be poisoned by one forged or broken report.
 */
export const MAX_FLOW_DURATION_MS = 3_600_000;

export interface FlowEndsOptions {
  /**
   * Finds a flux meter by name (Engine.fluxMeter) and, when it can, a limiter by policy and
   * component id (Engine.limiter): the schedulers that admitted a flow learn its duration.
   */
  fluxMeters: {
    fluxMeter(name: string): FluxMeter | undefined;
    limiter?(policyName: string, componentId: string): Limiter | undefined;
    /**
     * Whether the named flux meter is registered at the control point (Engine.fluxMeterSelects): an
     * SDK span is recorded only into meters whose selectors name its control point. Absent: not checked.
     */
    fluxMeterSelects?(name: string, controlPoint: string): boolean;
  };
  /** Longest duration recorded (ms); default MAX_FLOW_DURATION_MS. */
  maxDurationMs?: number;
  histogram: FluxMeterHistogram;
  /** Where `flow_ends_total{source,result}` is registered; none: not exported. */
  registry?: Registry;
  inflight?: InflightFlowsOptions;
  /** Clock, epoch ms (the engine's start/end times are on the same clock). */
  now?: () => number;
}

/** The end of a flow as the tap or a FlowEnd caller reports it. */
export interface FlowEndReport {
  /** Empty: not checked; otherwise must be the flow's control point. */
  controlPoint: string;
  flowId: string;
  /** The workload's HTTP status; 0 when unknown. */
  statusCode: number;
  /** The caller's measure of the flow, which wins over the agent's; undefined or 0: measured here. */
  durationMs?: number;
}

/** The schedulers' workloads of an accepted flow (a limiter that names a workload is a scheduler); undefined when none named one. */
function admittedWorkloads(d: CheckDecision): AdmittedWorkload[] | undefined {
  let out: AdmittedWorkload[] | undefined;
  for (const l of d.limiters) {
    const index = l.result.workloadIndex;
    if (index === undefined || !l.result.accepted) continue;
    (out ??= []).push({ policyName: l.identity.policy_name, componentId: l.identity.component_id, workloadIndex: index });
  }
  return out;
}

const MAX_SPAN_LIMITER_DECISIONS = 64;

function prop(o: unknown, camel: string, snake: string): unknown {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  const r = o as Record<string, unknown>;
  return Object.prototype.hasOwnProperty.call(r, camel) ? r[camel] : Object.prototype.hasOwnProperty.call(r, snake) ? r[snake] : undefined;
}

/**
 * The schedulers' workloads named by the check response an SDK span carries (its limiter
 * decisions with a load scheduler info, not dropped); undefined when none. Read only when the
 * text names a scheduler at all, so other spans cost no second parse.
 */
function spanWorkloads(span: ReceivedSpan): AdmittedWorkload[] | undefined {
  const raw = span.attributes.get(SDK_CHECK_RESPONSE_ATTRIBUTE);
  if (typeof raw !== 'string' || !(raw.includes('loadSchedulerInfo') || raw.includes('load_scheduler_info'))) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const decisions = prop(parsed, 'limiterDecisions', 'limiter_decisions');
  if (!Array.isArray(decisions)) return undefined;
  let out: AdmittedWorkload[] | undefined;
  for (const d of decisions.slice(0, MAX_SPAN_LIMITER_DECISIONS)) {
    const index = prop(prop(d, 'loadSchedulerInfo', 'load_scheduler_info'), 'workloadIndex', 'workload_index');
    const policyName = prop(d, 'policyName', 'policy_name');
    const componentId = prop(d, 'componentId', 'component_id');
    if (prop(d, 'dropped', 'dropped') === true || typeof index !== 'string' || index === '' || typeof policyName !== 'string' || typeof componentId !== 'string') continue;
    (out ??= []).push({ policyName, componentId, workloadIndex: index });
  }
  return out;
}

function flowStatusOf(statusCode: number): 'OK' | 'Error' {
  return statusCode >= 500 ? 'Error' : 'OK';
}

/**
 * Where flows measured by flux meters end, whichever way the end arrives:
 * - CheckHTTP: an accepted flow that flux meters select gets a flow id
 *   (`begin`) kept in a bounded in-flight map; the tap reports its end with
 *   FlowEnd (`end`), and the duration runs from the check to that end. A
 *   rejected flow is recorded at once (its duration is the check's; its
 *   response status the denial's, flow status `Error`).
 * - SDK spans (OTLP): `recordSpan` reads the check response the span carries.
 * Ends naming an unknown or expired id, and malformed spans, are counted in
 * `flow_ends_total{source,result}` and otherwise ignored.
 */
export class FlowEnds {
  readonly inflight: InflightFlows;
  private readonly meters: FlowEndsOptions['fluxMeters'];
  private readonly histogram: FluxMeterHistogram;
  private readonly now: () => number;
  private readonly maxDurationMs: number;
  private readonly counter: Counter<'source' | 'result'> | undefined;

  constructor(opts: FlowEndsOptions) {
    this.meters = opts.fluxMeters;
    this.histogram = opts.histogram;
    this.now = opts.now ?? (() => performance.timeOrigin + performance.now());
    this.maxDurationMs = opts.maxDurationMs ?? MAX_FLOW_DURATION_MS;
    this.inflight = new InflightFlows({ now: this.now, ...opts.inflight });
    this.counter = opts.registry === undefined ? undefined : new Counter({
      name: FLOW_ENDS_METRIC,
      help: 'Ends of flows measured by flux meters, by where the end came from (check, flow_end, otlp) and what became of it.',
      labelNames: ['source', 'result'],
      registers: [opts.registry],
    });
  }

  /**
   * A CheckHTTP decision: answers the flow id the caller reports the end
   * with, or undefined when no flux meter selected the flow or it was
   * rejected (then recorded already).
   */
  begin(d: CheckDecision): string | undefined {
    if (d.fluxMeters.length === 0) return undefined;
    if (!d.accepted) {
      const outcome: FlowOutcome = { decisionType: 'DECISION_TYPE_REJECTED', responseStatus: String(d.deniedStatus), flowStatus: 'Error' };
      this.record(d.fluxMeters, Math.max(0, d.endMs - d.startMs), outcome);
      this.count('check', 'recorded');
      return undefined;
    }
    const workloads = admittedWorkloads(d);
    return this.inflight.add({
      controlPoint: d.controlPoint, fluxMeters: d.fluxMeters, decisionType: 'DECISION_TYPE_ACCEPTED', startMs: d.startMs,
      ...(workloads === undefined ? {} : { workloads }),
    });
  }

  /** The end of a flow handed out by `begin`. */
  end(report: FlowEndReport): FlowEndResult {
    const found = this.inflight.end(report.flowId, report.controlPoint === '' ? undefined : report.controlPoint);
    if (!found.ok) {
      this.count('flow_end', found.reason);
      return found.reason;
    }
    const flow = found.flow;
    const given = report.durationMs;
    const durationMs = given !== undefined && Number.isFinite(given) && given > 0 ? given : Math.max(0, this.now() - flow.startMs);
    if (durationMs > this.maxDurationMs) {
      this.count('flow_end', 'out_of_range');
      return 'out_of_range';
    }
    const code = Number.isInteger(report.statusCode) && report.statusCode > 0 ? report.statusCode : 0;
    this.record(flow.fluxMeters, durationMs, {
      decisionType: flow.decisionType,
      responseStatus: code === 0 ? '' : String(code),
      flowStatus: flowStatusOf(code),
    });
    if (flow.workloads !== undefined) this.observeDuration(flow.workloads, durationMs);
    this.count('flow_end', 'recorded');
    return 'recorded';
  }

  /** Feed a flow's duration to the schedulers that admitted it (their token estimates per workload). */
  private observeDuration(workloads: readonly AdmittedWorkload[], durationMs: number): void {
    for (const w of workloads) {
      try {
        this.meters.limiter?.(w.policyName, w.componentId)?.observeFlowDuration?.(w.workloadIndex, durationMs);
      } catch {
        // a scheduler that cannot take the reading loses it; the flow's end is recorded all the same
      }
    }
  }

  /**
   * One span received over OTLP: answers what became of it. Not recorded: `malformed` (unreadable,
   * or its end before its start), `out_of_range` (a duration past the maximum), `unselected` (it
   * names flux meters none of which is registered at its control point). Meters it names that are
   * not at its control point are left out. Those results are the export's rejected spans.
   */
  recordSpan(span: ReceivedSpan): FlowEndResult {
    return this.recordReading('otlp', readSdkSpan(span), undefined, () => spanWorkloads(span));
  }

  /**
   * One Envoy access log record received over OTLP (envoy-access-log.ts): recorded, or not, as
   * recordSpan, with the workload's HTTP status as the response status. Counted with source `access_log`.
   */
  recordAccessLog(attributes: LogAttributes): FlowEndResult {
    const r = readEnvoyLog(attributes);
    return this.recordReading('access_log', r.reading, r.statusCode === 0 ? '' : String(r.statusCode), () => r.workloads);
  }

  private recordReading(source: FlowEndSource, reading: SdkSpanReading, responseStatus: string | undefined, workloadsOf: () => AdmittedWorkload[] | undefined): FlowEndResult {
    if (reading.kind !== 'flow') {
      this.count(source, reading.kind);
      return reading.kind;
    }
    const f = reading.flow;
    if (!(f.durationMs <= this.maxDurationMs)) {
      this.count(source, 'out_of_range');
      return 'out_of_range';
    }
    const selects = this.meters.fluxMeterSelects?.bind(this.meters);
    const meters = selects === undefined ? f.fluxMeters : f.fluxMeters.filter((name) => selects(name, f.controlPoint));
    if (meters.length === 0 && f.fluxMeters.length > 0) {
      this.count(source, 'unselected');
      return 'unselected';
    }
    this.record(meters, f.durationMs, { decisionType: f.decisionType, responseStatus: responseStatus ?? f.responseStatus ?? f.flowStatus, flowStatus: f.flowStatus });
    if (f.decisionType === 'DECISION_TYPE_ACCEPTED') {
      const workloads = workloadsOf();
      if (workloads !== undefined) this.observeDuration(workloads, f.durationMs);
    }
    this.count(source, 'recorded');
    return 'recorded';
  }

  /**
   * The OTLP trace service's consumer (SpanConsumer): a span recorded, or not an Aperture one, is
   * taken; the others are rejected with why.
   */
  consume(span: ReceivedSpan): true | string {
    return this.why(this.recordSpan(span), 'span');
  }

  /** The OTLP logs service's consumer: as `consume`, for Envoy access log records. */
  consumeAccessLog(attributes: LogAttributes): true | string {
    return this.why(this.recordAccessLog(attributes), 'log record');
  }

  private why(result: FlowEndResult, what: string): true | string {
    switch (result) {
      case 'recorded':
      case 'not_aperture':
        return true;
      case 'out_of_range':
        return `a ${what}'s flow lasted longer than ${this.maxDurationMs} ms`;
      case 'unselected':
        return `a ${what} names flux meters none of which is at its control point`;
      default:
        return `a ${what} carries Aperture attributes that cannot be read`;
    }
  }

  private record(names: readonly string[], durationMs: number, outcome: FlowOutcome): void {
    for (const name of names) {
      const meter = this.meters.fluxMeter(name);
      // a meter removed since the check (its policy deleted) has nothing left to record into
      if (isMeasuringFluxMeter(meter)) this.histogram.record(meter, durationMs, outcome);
    }
  }

  private count(source: FlowEndSource, result: FlowEndResult): void {
    this.counter?.inc({ source, result });
  }
}
