import type { ComponentRuntime, KindCompiled, RaisedAlert, ReportedSignals, SignalValue, TickInputs } from './components/kind.js';
import type { PublishedDecision } from './published.js';

export interface CircuitInputs {
  /** The latest result of each PromQL component, by its id (`CompiledPolicy.promql[].id`); undefined or absent is invalid. */
  promql: ReadonlyMap<string, number | undefined>;
  /** Values set through the API, by the signal name of a variable component. */
  variables: ReadonlyMap<string, number>;
  /** What the agents reported back (a pod scaler's replicas), by component id; absent is invalid. */
  reports?: ReadonlyMap<string, ReportedSignals>;
  /** The dynamic configuration's values by key (checkDynamicConfig); absent keys keep what the spec says. */
  dynamic?: ReadonlyMap<string, unknown>;
}

export interface CircuitOutput {
  /** The decision of each flow-control component that has had valid inputs at least once, by component id. */
  decisions: Map<string, PublishedDecision>;
  /** Every signal's value at this tick; null when invalid. */
  signals: Record<string, number | null>;
  /** Alerts raised at this tick (alerters whose signal is valid and non-zero). */
  alerts?: RaisedAlert[];
}

export interface Circuit {
  tick(nowMs: number, inputs: CircuitInputs): CircuitOutput;
  /** The id of the component writing each signal, by signal name. */
  readonly signalWriters?: ReadonlyMap<string, string>;
}

/** One component as the runtime sees it: where its inputs come from and where its outputs go. */
export interface CircuitNode {
  id: string;
  /** `late`: the value of the previous tick (invalid at the first), for an input that closes a loop. */
  inputs: readonly ({ signal: string; late?: boolean } | { constant: SignalValue })[];
  outputs: readonly (string | undefined)[];
  compiled: KindCompiled;
  /** Its outputs come from `outputsAtStart`, set before any node runs (ComponentKind.delaysOutputs). */
  delaysOutputs?: boolean;
}

/** A circuit over nodes already in evaluation order; each call makes fresh component state. */
export function createCircuit(nodes: readonly CircuitNode[]): Circuit {
  const live = nodes.map((node) => ({ node, runtime: node.compiled.createRuntime() as ComponentRuntime }));
  let previous = new Map<string, number | null>();
  const signalWriters = new Map<string, string>();
  for (const node of nodes) for (const s of node.outputs) if (s !== undefined) signalWriters.set(s, node.id);
  return {
    signalWriters,
    tick(nowMs, inputs) {
      const tick: TickInputs = { nowMs, promql: inputs.promql, variables: inputs.variables, ...(inputs.reports ? { reports: inputs.reports } : {}), ...(inputs.dynamic ? { dynamic: inputs.dynamic } : {}) };
      // A Map, not an object: signal names such as `__proto__` are plain keys.
      const signals = new Map<string, number | null>();
      const decisions = new Map<string, PublishedDecision>();
      let alerts: RaisedAlert[] | undefined;
      const publish = (node: CircuitNode, outputs: readonly SignalValue[]): void => {
        node.outputs.forEach((signal, i) => {
          if (signal === undefined) return;
          const v = outputs[i];
          signals.set(signal, v === undefined || v === null || Number.isNaN(v) ? null : v);
        });
      };
      // Outputs known before this tick's inputs (a loop through such a node is no cycle).
      for (const { node, runtime } of live) if (node.delaysOutputs === true) publish(node, runtime.outputsAtStart?.(tick) ?? []);
      for (const { node, runtime } of live) {
        const values = node.inputs.map((input) =>
          'signal' in input ? ((input.late === true ? previous : signals).get(input.signal) ?? null) : input.constant,
        );
        const { outputs, decision, alerts: raised } = runtime.tick(values, tick);
        if (node.delaysOutputs !== true) publish(node, outputs);
        if (decision !== undefined) decisions.set(node.id, decision);
        if (raised !== undefined && raised.length > 0) (alerts ??= []).push(...raised);
      }
      previous = signals;
      return { decisions, signals: Object.fromEntries(signals), ...(alerts === undefined ? {} : { alerts }) };
    },
  };
}
