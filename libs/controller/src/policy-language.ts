import type { PublishedComponent, PublishedDecision } from '@sluice/policies';

/**
 * What the controller needs of the policy language (@sluice/policies): the
 * validator and compiler, and the circuit a compiled policy runs. The app wires
 * the real functions; tests can hand in small stand-ins.
 */
export interface PolicyProblem {
  /** JSON path, e.g. `spec.circuit.components[0].flow_control.rate_limiter.in_ports.bucket_capacity`. */
  path: string;
  message: string;
}

export interface CircuitInputs {
  /** Latest value of each PromQL query by id; undefined when invalid (error, timeout, not a single value). */
  promql: ReadonlyMap<string, number | undefined>;
  /** Values of `variable` components by signal name. */
  variables: ReadonlyMap<string, number>;
}

export interface CircuitOutput {
  /** Decisions by component id; a component without one keeps its last published decision. */
  decisions: Map<string, PublishedDecision>;
  signals: Record<string, number | null>;
}

export interface Circuit {
  tick(nowMs: number, inputs: CircuitInputs): CircuitOutput;
}

export interface PromqlQuery {
  id: string;
  query: string;
  evaluationIntervalMs: number;
}

export interface CompiledPolicy {
  name: string;
  hash: string;
  spec: unknown;
  evaluationIntervalMs: number;
  components: PublishedComponent[];
  promql: PromqlQuery[];
  variables: string[];
  ignored: string[];
  createCircuit(): Circuit;
}

export interface PolicyLanguage {
  /** Compiles a spec; throws an error carrying `problems` (PolicyProblem[]) when it is invalid. */
  compilePolicy(name: string, spec: unknown): CompiledPolicy;
}
