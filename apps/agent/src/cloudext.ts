import { createHeartbeats, heartbeatsOn, servicesOf } from '@sluice/cloudext';
import type { AgentConfig } from '@sluice/config';
import type { PolicyEnforcement } from '@sluice/enforcement';
import type { Engine } from '@sluice/flowcontrol';
import { sluiceVersion, type ProcessRuntime } from '@sluice/runtime';

/**
 * Heartbeats to the cloud service while `cloudext.api_key` is set (docs/guides/crash-reports-and-heartbeats.md):
 * the agent's group, installation mode, version, the policies it enforces with their hashes, and
 * the services it has seen flows of with their control points.
 */
export function installHeartbeats(runtime: ProcessRuntime, config: Pick<AgentConfig, 'cloudext' | 'client' | 'agent_info'>, engine: Engine, enforcement: PolicyEnforcement): void {
  if (!heartbeatsOn(config.cloudext)) return;
  runtime.lifecycle.add(createHeartbeats({
    cloud: config.cloudext,
    proxy: config.client.proxy,
    identity: { service: 'sluice-agent', version: sluiceVersion(), agentGroup: config.agent_info.agent_group },
    state: {
      policies: () => enforcement.enforced().map((c) => ({ name: c.policy_name, hash: c.policy_hash })),
      // A flow without services is recorded under `any`: no service of its own.
      services: () => servicesOf(engine.controlPoints.list().filter((e) => e.service !== 'any')),
    },
    logger: runtime.logger,
    registry: runtime.registry,
  }));
}
