import type { TObject } from '@sinclair/typebox';
import { AgentConfigSchema, ControllerConfigSchema } from './schema/index.js';
import type { AgentConfig, ControllerConfig } from './types.js';

export type ProcessName = 'agent' | 'controller';

/** The configuration type of each process. */
export interface ConfigByProcess {
  agent: AgentConfig;
  controller: ControllerConfig;
}

export interface ProcessSpec {
  readonly name: ProcessName;
  readonly schema: TObject;
  /** `SLUICE_AGENT_` or `SLUICE_CONTROLLER_`. */
  readonly envPrefix: string;
  /** `/etc/sluice/<service>/config/<service>.yaml`. */
  readonly defaultConfigFile: string;
  /** Key paths that must be set (non-empty) unless the caller says otherwise. */
  readonly requiredKeys: readonly string[];
}

export const PROCESSES: Readonly<Record<ProcessName, ProcessSpec>> = {
  agent: {
    name: 'agent',
    schema: AgentConfigSchema,
    envPrefix: 'SLUICE_AGENT_',
    defaultConfigFile: '/etc/sluice/agent/config/agent.yaml',
    requiredKeys: ['etcd.endpoints'],
  },
  controller: {
    name: 'controller',
    schema: ControllerConfigSchema,
    envPrefix: 'SLUICE_CONTROLLER_',
    defaultConfigFile: '/etc/sluice/controller/config/controller.yaml',
    requiredKeys: ['etcd.endpoints', 'prometheus.address'],
  },
};
