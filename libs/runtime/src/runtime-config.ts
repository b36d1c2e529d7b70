import type { AgentConfig, ControllerConfig } from '@sluice/config';
import type { LocalPipelineConfig } from './local-pipeline.js';

type Common = 'log' | 'metrics' | 'profilers' | 'server' | 'liveness' | 'readiness' | 'watchdog' | 'crash_report';

/** The part of the configuration that every Sluice process shares. */
export type RuntimeConfig = Pick<AgentConfig, Common> & LocalPipelineConfig & {
  /** The key both trees' `otel` have (the agent's and the controller's). */
  otel: Pick<AgentConfig['otel'], 'enable_high_cardinality_platform_metrics'> & Pick<ControllerConfig['otel'], 'enable_high_cardinality_platform_metrics'>;
};

// Both key trees must fit: a compile-time check.
export type AgentFits = AgentConfig extends RuntimeConfig ? true : never;
export type ControllerFits = ControllerConfig extends RuntimeConfig ? true : never;
