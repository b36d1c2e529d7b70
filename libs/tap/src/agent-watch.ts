import type { Lifecycle } from '@sluice/lifecycle';
import type { ConnectionState } from './check/agent-connection.js';
import type { TapMetrics } from './metrics.js';
import type { Logger } from '@sluice/telemetry/logger';

/** What the watch needs of the check client (CheckHttpClient fits). */
export interface WatchedAgent {
  connectivity(): ConnectionState;
  lastError(): string;
  connect(): void;
}

export interface AgentWatchOptions {
  agent: WatchedAgent;
  /** The agent's address, for the log. */
  address: string;
  graceMs: number;
  /** Stay ready while the agent is unreachable. */
  failOpenSilently: boolean;
  logger: Logger;
  metrics: TapMetrics;
  /** How often the connection is looked at; default 500 ms. */
  everyMs?: number;
}

export interface AgentWatch extends Lifecycle {
  /** Why the tap is not ready, or undefined when it is. */
  notReady(): string | undefined;
  /** Stops looking at the connection. */
  shutdown(): Promise<void>;
}

/**
 * Keeps the connection to the agent dialled and says when it is lost: once
 * the agent has been unreachable for `graceMs` (from start, or from the loss
 * of a connection that was up), a warning is logged, `tap_agent_reachable` is
 * 0 and the tap is not ready (unless `failOpenSilently`), since every request
 * it passes then goes through unchecked. When the agent is back, that is
 * logged too and all is as before.
 */
export function watchAgent(o: AgentWatchOptions): AgentWatch {
  let downSince = Date.now();
  let unreachable = false;
  const look = (): void => {
    const state = o.agent.connectivity();
    if (state === 'ready') {
      downSince = Number.POSITIVE_INFINITY;
      if (unreachable) {
        unreachable = false;
        o.metrics.agentReachable(true);
        o.logger.info('agent reachable again: requests are checked', { agent: o.address });
      }
      return;
    }
    if (state === 'idle') o.agent.connect();
    if (downSince === Number.POSITIVE_INFINITY) downSince = Date.now();
    if (!unreachable && Date.now() - downSince >= o.graceMs) {
      unreachable = true;
      o.metrics.agentReachable(false);
      o.logger.warn('agent unreachable: requests go through unchecked (tap_fail_open_total)', {
        agent: o.address, state, error: o.agent.lastError(), unreachable_ms: Date.now() - downSince,
        ready: o.failOpenSilently ? 'stays ready (--fail-open-silently)' : 'not ready until the agent is back',
      });
    }
  };
  const timer = setInterval(look, o.everyMs ?? 500);
  timer.unref();
  look();
  return {
    notReady: () => (unreachable && !o.failOpenSilently ? `the agent at ${o.address} is unreachable${o.agent.lastError() === '' ? '' : `: ${o.agent.lastError()}`}` : undefined),
    shutdown: async () => clearInterval(timer),
  };
}
