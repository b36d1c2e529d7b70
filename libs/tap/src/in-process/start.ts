import type { AgentTapConfig } from '@sluice/config';
import type { CheckHttpDeps } from '@sluice/flowcontrol';
import type { Registry } from 'prom-client';
import { startTap, type Tap } from '../tap.js';
import { EngineChecker } from './engine-checker.js';
import { engineFlowEnds } from './engine-flow-ends.js';
import { inProcessTapOptions } from './options.js';
import type { Logger } from '@sluice/telemetry/logger';

/** The in-process tap's configuration cannot be served: a bad address, or a port it cannot bind. The agent exits 2. */
export class TapConfigError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TapConfigError';
  }
}

export interface InProcessTapDeps {
  /** The agent's decision path: its engine, service discovery and flow ends. */
  decide: CheckHttpDeps;
  logger: Logger;
  /** The agent's registry: the tap's metrics are on the agent's /metrics. */
  registry: Registry;
}

const BIND_PROBLEMS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is in use by another process',
  EACCES: 'binding the port is not permitted',
  EADDRNOTAVAIL: 'the host is not an address of this machine',
};

/**
 * Starts the tap in the agent process: the separate tap's proxy (startTap) with every
 * check decided by the agent's engine (EngineChecker) and flow ends recorded by its
 * FlowEnds, no admin server (the agent serves /metrics and health). Rejects with a
 * TapConfigError naming the key when the configuration cannot be served.
 */
export async function startInProcessTap(config: AgentTapConfig, deps: InProcessTapDeps): Promise<Tap> {
  const options = inProcessTapOptions(config);
  if ('problems' in options) throw new TapConfigError(options.problems.join('; '));
  const flowEnds = deps.decide.flowEnds;
  try {
    return await startTap(options, {
      logger: deps.logger,
      registry: deps.registry,
      checker: new EngineChecker(deps.decide),
      flowEnds: flowEnds === undefined ? { report: () => undefined, shutdown: async () => undefined } : engineFlowEnds(flowEnds),
      adminServer: false,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | null)?.code;
    const why = code === undefined ? undefined : BIND_PROBLEMS[code];
    if (why !== undefined) throw new TapConfigError(`tap.listen ${JSON.stringify(config.listen)}: ${why} (${code})`, { cause: err });
    throw err;
  }
}
