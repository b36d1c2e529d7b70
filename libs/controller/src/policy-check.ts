import { checkDynamicConfig } from '@sluice/policies';
import { rejectionOf } from './policy-errors.js';
import type { PolicyProblem } from './policy-language.js';
import type { PolicyRegistry } from './policy-registry.js';

/** What a spec would get if applied: it compiles (with the JSON paths it ignores), or every problem with its JSON path. */
export type PolicyCheckResult = { ok: true; ignored: string[] } | { ok: false; problems: PolicyProblem[] };

/**
 * The check of the policy validating webhook: the registry's compile (the policy API's compiler
 * and the `prometheus.labels` checks of its queries), and of the resource's `dynamicConfig` against
 * the keys its components name, without applying anything. Never throws.
 */
export function policyCheck(registry: Pick<PolicyRegistry, 'compile'>): (name: string, spec: unknown, dynamicConfig?: unknown) => PolicyCheckResult {
  return (name, spec, dynamicConfig) => {
    try {
      const compiled = registry.compile(name, spec);
      if (dynamicConfig !== undefined && dynamicConfig !== null) {
        const problems = checkDynamicConfig(dynamicConfig, compiled.configKeys, 'dynamicConfig').problems;
        if (problems.length > 0) return { ok: false, problems };
      }
      return { ok: true, ignored: compiled.ignored };
    } catch (err) {
      return { ok: false, problems: rejectionOf(name, err).problems };
    }
  };
}
