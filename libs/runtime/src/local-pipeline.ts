import type { AgentConfig } from '@sluice/config';

/** The keys that decide whether the process runs its local metrics pipeline. */
export interface LocalPipelineConfig {
  cloudext: Pick<AgentConfig['cloudext'], 'disable_local_otel_pipeline'> & { enable_cloud_controller?: boolean };
}

/**
 * Whether this process runs its local metrics pipeline: today the `/metrics` endpoint (the
 * metrics are still kept in the registry, for the process's own use). `cloudext.disable_local_otel_pipeline`
 * turns it off, and so would the controller's `cloudext.enable_cloud_controller` (refused at start).
 * Every part of the local pipeline asks here.
 */
export function localMetricsPipelineOn(config: LocalPipelineConfig): boolean {
  return !config.cloudext.disable_local_otel_pipeline && config.cloudext.enable_cloud_controller !== true;
}
