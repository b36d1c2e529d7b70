import type { CompiledPolicy } from '@sluice/policies';

/**
 * What the controller needs of the policy language (@sluice/policies): its
 * compiler, and the circuit a compiled policy runs. The app wires the real
 * compiler; tests can hand in small stand-ins. The types are the language's own.
 */
export type { Circuit, CircuitInputs, CircuitOutput, CompiledPolicy, PolicyProblem } from '@sluice/policies';

/** One PromQL query of a compiled policy: the circuit reads its result by `id`. */
export type PromqlQuery = CompiledPolicy['promql'][number];

export interface PolicyLanguage {
  /** Compiles a spec; throws an error carrying `problems` (PolicyProblem[]) when it is invalid. */
  compilePolicy(name: string, spec: unknown): CompiledPolicy;
}
