import type { EtcdConfig } from '@sluice/config';
import { PolicyEnforcement } from '@sluice/enforcement';
import { createEtcd, etcdReadinessJob, etcdReadinessStatus, type SluiceEtcd } from '@sluice/etcd';
import type { Engine } from '@sluice/flowcontrol';
import type { ProcessRuntime } from '@sluice/runtime';

export interface AgentPolicies {
  readonly etcd: SluiceEtcd;
  readonly enforcement: PolicyEnforcement;
}

/**
 * Wires the agent's etcd client (`etcd.*`) and the enforcement of the
 * policies published for `agentGroup`: a readiness check that shows the etcd
 * state (liveness never depends on etcd), both in the lifecycle (etcd first;
 * on shutdown enforcement stops before the lease is revoked), and
 * `GET /v1/policies/enforced` listing what this agent enforces.
 */
export function installPolicies(runtime: ProcessRuntime, engine: Engine, etcdConfig: EtcdConfig, agentGroup: string): AgentPolicies {
  const etcd = createEtcd(etcdConfig, { logger: runtime.logger, registry: runtime.registry });
  const enforcement = new PolicyEnforcement({ etcd, engine, agentGroup, logger: runtime.logger, registry: runtime.registry });
  const job = etcdReadinessJob(etcd);
  runtime.addReadinessJob(job);
  // A state change shows at once, not at the job's next period.
  etcd.onStateChange((state) => { runtime.status.set(`readiness/service/${job.name}`, etcdReadinessStatus(state)); });
  runtime.lifecycle.add({ name: 'etcd', start: () => etcd.start(), shutdown: () => etcd.shutdown() });
  runtime.lifecycle.add({ name: 'policy-enforcement', start: () => enforcement.start(), shutdown: () => enforcement.shutdown() });
  runtime.server.app.get('/v1/policies/enforced', (_req, res) => {
    res.json({ agent_group: agentGroup, etcd_state: etcd.state(), synced: enforcement.synced(), components: enforcement.enforced() });
  });
  return { etcd, enforcement };
}
