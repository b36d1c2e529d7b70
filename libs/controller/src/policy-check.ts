import { rejectionOf } from './policy-errors.js';
import type { PolicyProblem } from './policy-language.js';
import type { PolicyRegistry } from './policy-registry.js';

/** What a spec would get if applied: it compiles (with the JSON paths it ignores), or every problem with its JSON path. */
export type PolicyCheckResult = { ok: true; ignored: string[] } | { ok: false; problems: PolicyProblem[] };

/**
 * The check of the policy validating webhook: the registry's compile (the policy API's compiler
 * and the `prometheus.labels` checks of its queries), without applying anything. Never throws.
 */
export function policyCheck(registry: Pick<PolicyRegistry, 'compile'>): (name: string, spec: unknown) => PolicyCheckResult {
  return (name, spec) => {
    try {
      return { ok: true, ignored: registry.compile(name, spec).ignored };
    } catch (err) {
      return { ok: false, problems: rejectionOf(name, err).problems };
    }
  };
}
