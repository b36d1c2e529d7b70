import { createHeartbeats, heartbeatsOn } from '@sluice/cloudext';
import type { ControllerConfig } from '@sluice/config';
import type { PolicyController } from '@sluice/controller';
import { sluiceVersion, type ProcessRuntime } from '@sluice/runtime';

/**
 * Heartbeats to the cloud service while `cloudext.api_key` is set (docs/guides/crash-reports-and-heartbeats.md):
 * `cloudext.controller_id`, installation mode, version, and the policies the controller runs with their hashes.
 */
export function installHeartbeats(runtime: ProcessRuntime, config: Pick<ControllerConfig, 'cloudext' | 'client'>, policies: PolicyController): void {
  if (!heartbeatsOn(config.cloudext)) return;
  runtime.lifecycle.add(createHeartbeats({
    cloud: config.cloudext,
    proxy: config.client.proxy,
    identity: { service: 'sluice-controller', version: sluiceVersion(), agentGroup: '' },
    state: {
      policies: () => policies.policies.list().map((p) => ({ name: p.name, hash: p.hash })),
      services: () => [],
    },
    logger: runtime.logger,
    registry: runtime.registry,
  }));
}
