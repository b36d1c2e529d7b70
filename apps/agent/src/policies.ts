import { named } from '@sluice/lifecycle';
import type { EtcdConfig } from '@sluice/config';
import { PolicyEnforcement, type TokenBucketStoreFactory } from '@sluice/enforcement';
import { createEtcd, etcdReadinessJob, etcdReadinessStatus, type SluiceEtcd } from '@sluice/etcd';
import type { Engine } from '@sluice/flowcontrol';
import type { ProcessRuntime } from '@sluice/runtime';

export interface AgentPolicies {
  readonly etcd: SluiceEtcd;
  readonly enforcement: PolicyEnforcement;
}

export interface InstallPoliciesOptions {
  /** The token-bucket stores of published rate limiters (default: local buckets). */
  tokenBucketStore?: TokenBucketStoreFactory;
}

/**
 * Wires the agent's etcd client (`etcd.*`): a readiness check that shows the
 * etcd state (liveness never depends on etcd), and etcd in the lifecycle.
 * Call it before anything that uses etcd (the dist cache, the policies), so
 * that etcd starts first and stops last.
 */
export function installEtcd(runtime: ProcessRuntime, etcdConfig: EtcdConfig): SluiceEtcd {
  const etcd = createEtcd(etcdConfig, { logger: runtime.logger, registry: runtime.registry });
  const job = etcdReadinessJob(etcd);
  runtime.addReadinessJob(job);
  // A state change shows at once, not at the job's next period.
  etcd.onStateChange((state) => { runtime.status.set(`readiness/service/${job.name}`, etcdReadinessStatus(state)); });
  runtime.lifecycle.add(named('etcd', etcd));
  return etcd;
}

/**
 * Wires the enforcement of the policies published for `agentGroup` in the
 * lifecycle (after etcd, and after the dist cache when there is one: on
 * shutdown enforcement stops first), and `GET /v1/policies/enforced` listing
 * what this agent enforces. Rate limiters take their buckets from
 * `opts.tokenBucketStore` (the dist cache's stores, shared by the group).
 */
export function installPolicies(runtime: ProcessRuntime, engine: Engine, etcd: SluiceEtcd, agentGroup: string, opts: InstallPoliciesOptions = {}): AgentPolicies {
  const enforcement = new PolicyEnforcement({
    etcd, engine, agentGroup, logger: runtime.logger, registry: runtime.registry,
    ...(opts.tokenBucketStore !== undefined ? { tokenBucketStore: opts.tokenBucketStore } : {}),
  });
  runtime.lifecycle.add(named('policy-enforcement', enforcement));
  runtime.server.app.get('/v1/policies/enforced', (_req, res) => {
    res.json({ agent_group: agentGroup, etcd_state: etcd.state(), synced: enforcement.synced(), components: enforcement.enforced() });
  });
  return { etcd, enforcement };
}
