import { PolicyRejectedError } from './policy-errors.js';
import type { PolicyRegistry } from './policy-registry.js';

export type PolicyApplyResult = { ok: true; hash: string; ignored: string[] } | { ok: false; message: string };

/** What the Policy CR watcher (libs/kube) calls for each custom resource. */
export interface PolicySink {
  apply(name: string, spec: unknown): Promise<PolicyApplyResult>;
  remove(name: string): Promise<void>;
  /** The names held from custom resources (the watcher removes those whose resource is gone). */
  names(): Promise<string[]>;
  /** Every custom resource of the first complete list was applied (or refused). */
  listed(): void;
}

const SINK_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const MAX_SINK_NAME = 253;

/**
 * The registry as the CR watcher sees it (source `kubernetes`): a resource that
 * compiles runs (a CR wins over an API policy of the same name); one that does not
 * answers its problems for the CR's status, and the version that compiled before,
 * if any, keeps running. Names are DNS-1123 subdomains (the watcher may qualify
 * them, e.g. with the namespace).
 */
export function policySink(registry: PolicyRegistry, onListed: () => void = () => undefined): PolicySink {
  return {
    async apply(name, spec) {
      if (name.length > MAX_SINK_NAME || !SINK_NAME.test(name)) {
        return { ok: false, message: `policy name ${JSON.stringify(name)} must be a DNS-1123 subdomain of at most ${MAX_SINK_NAME} characters` };
      }
      try {
        const compiled = registry.compile(name, spec);
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
