import type { AgentConfig, ControllerConfig } from '@sluice/config';

type Common = 'log' | 'metrics' | 'profilers' | 'server' | 'liveness' | 'readiness' | 'watchdog' | 'prometheus';

/** The part of the configuration that every Sluice process shares. */
export type RuntimeConfig = Pick<AgentConfig, Common> & {
  otel: Pick<AgentConfig['otel'], 'enable_high_cardinality_platform_metrics' | 'ports' | 'export_interval' | 'otlp_endpoint'>;
};

// Both key trees must fit: a compile-time check.
export type AgentFits = AgentConfig extends RuntimeConfig ? true : never;
export type ControllerFits = ControllerConfig extends RuntimeConfig ? true : never;
