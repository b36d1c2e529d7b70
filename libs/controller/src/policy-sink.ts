import { checkDynamicConfig, policyNameProblem, type DynamicConfig } from '@sluice/policies';
import { PolicyRejectedError } from './policy-errors.js';
import type { PolicyRegistry } from './policy-registry.js';

export type PolicyApplyResult = { ok: true; hash: string; ignored: string[] } | { ok: false; message: string };

/** What the Policy CR watcher (libs/kube) calls for each custom resource. */
export interface PolicySink {
  /** `dynamicConfig`: the resource's top-level `dynamicConfig` (undefined when it has none). */
  apply(name: string, spec: unknown, dynamicConfig?: unknown): Promise<PolicyApplyResult>;
  remove(name: string): Promise<void>;
  /** The names held from custom resources (the watcher removes those whose resource is gone). */
  names(): Promise<string[]>;
  /** Every custom resource of the first complete list was applied (or refused). */
  listed(): void;
}


/**
 * The registry as the CR watcher sees it (source `kubernetes`): a resource that
 * compiles (its `dynamicConfig` too, checked against the keys its components name) runs, unless the policy API holds its name (refused: the first owner of a
 * name keeps it, and the API refuses names a resource holds); one that does not
 * answers its problems for the CR's status, and the version that compiled before,
 * if any, keeps running. Names are DNS-1123 subdomains (the watcher may qualify
 * them, e.g. with the namespace).
 */
export function policySink(registry: PolicyRegistry, onListed: () => void = () => undefined): PolicySink {
  return {
    async apply(name, spec, dynamicConfig) {
      const nameProblem = policyNameProblem(name);
      if (nameProblem !== undefined) return { ok: false, message: nameProblem };
      // One name, one owner: a resource does not take over a policy the API already holds.
      if (registry.desiredOf('api', name) !== undefined && registry.desiredOf('kubernetes', name) === undefined) {
        return { ok: false, message: `a policy named ${JSON.stringify(name)} exists through the policy API; policy names are shared by the API and Policy resources of every namespace: delete the API policy or rename the resource` };
      }
      try {
        const compiled = registry.compile(name, spec);
        if (dynamicConfig !== undefined && dynamicConfig !== null) {
          const problems = checkDynamicConfig(dynamicConfig, compiled.configKeys, 'dynamicConfig').problems;
          if (problems.length > 0) throw new PolicyRejectedError(name, problems);
          registry.setDynamicConfig('kubernetes', name, dynamicConfig as DynamicConfig);
        } else registry.setDynamicConfig('kubernetes', name, undefined);
        registry.set('kubernetes', name, spec, compiled);
        await registry.reconcile();
        return { ok: true, hash: compiled.hash, ignored: compiled.ignored };
      } catch (err) {
        const message = err instanceof PolicyRejectedError
          ? err.problems.map((p) => `${p.path}: ${p.message}`).join('; ')
          : err instanceof Error ? err.message : String(err);
        registry.setFailed('kubernetes', name, spec, message);
        await registry.reconcile();
        return { ok: false, message };
      }
    },
    async remove(name) {
      registry.setDynamicConfig('kubernetes', name, undefined);
      if (registry.delete('kubernetes', name)) await registry.reconcile();
    },
    names() {
      return Promise.resolve(registry.namesOf('kubernetes'));
    },
    listed() {
      onListed();
    },
  };
}
