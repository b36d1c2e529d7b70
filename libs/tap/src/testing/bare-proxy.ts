import http from 'node:http';
import { NO_FLOW_ENDS } from '../check/flow-end.js';
import { closed, listen } from '../listen.js';
import { silentLogger } from '../logger.js';
import { createTapMetrics } from '../metrics.js';
import type { HostPort, TapOptions } from '../options.js';
import { unreadBody } from '../proxy/body-prefix.js';
import { forwardRequest } from '../proxy/forward.js';
import type { ForwardContext } from '../proxy/forward-context.js';
import { createUpstreamPool } from '../proxy/pooled-forward.js';
import { Registry } from 'prom-client';

export interface BareProxy {
  readonly address: HostPort;
  close(): Promise<void>;
}

/**
 * The tap's forwarding core with nothing else: the same HTTP server settings,
 * the same pool and node:http agent, the same forwardRequest, but no check,
 * no body sample, no metrics of decisions. What the tap costs over it is the
 * cost of asking the agent (the tap-overhead bench compares the two).
 */
export async function startBareProxy(options: Pick<TapOptions, 'listen' | 'upstream' | 'upstreamTimeoutMs' | 'maxRequestHeaderBytes' | 'maxResponseHeaderBytes' | 'maxRequestHeaders' | 'maxResponseHeaders'>): Promise<BareProxy> {
  const pool = createUpstreamPool(options.upstream, options);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256, scheduling: 'lifo' });
  const ctx: ForwardContext = {
    upstream: options.upstream,
    agent,
    pool,
    upstreamTimeoutMs: options.upstreamTimeoutMs,
    maxResponseHeaderBytes: options.maxResponseHeaderBytes,
    maxResponseHeaders: options.maxResponseHeaders,
    maxRequestHeaders: options.maxRequestHeaders,
    controlPoint: '',
    flowEnds: NO_FLOW_ENDS,
    metrics: createTapMetrics(new Registry()),
    logger: silentLogger,
    draining: () => false,
  };
  const server = http.createServer({ keepAliveTimeout: 75_000, requestTimeout: 0, headersTimeout: 60_000, maxHeaderSize: options.maxRequestHeaderBytes },
    (req, res) => forwardRequest(ctx, req, res, unreadBody(req), [], undefined));
  server.maxHeadersCount = 0;
  const address = await listen(server, options.listen);
  return {
    address,
    async close() {
      server.closeAllConnections();
      await closed(server);
      agent.destroy();
      await pool.destroy();
    },
  };
}
