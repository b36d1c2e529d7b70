import type { AgentConfig, ControllerConfig } from '@sluice/config';
import type { LocalPipelineConfig } from './local-pipeline.js';

type Common = 'log' | 'metrics' | 'profilers' | 'server' | 'liveness' | 'readiness' | 'watchdog' | 'crash_report' | 'prometheus';

/** The part of the configuration that every Sluice process shares. */
export type RuntimeConfig = Pick<AgentConfig, Common> & LocalPipelineConfig & {
  otel: Pick<AgentConfig['otel'], 'enable_high_cardinality_platform_metrics' | 'ports' | 'export_interval' | 'otlp_endpoint'>;
};

// Both key trees must fit: a compile-time check.
export type AgentFits = AgentConfig extends RuntimeConfig ? true : never;
export type ControllerFits = ControllerConfig extends RuntimeConfig ? true : never;
