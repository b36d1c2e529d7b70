import { parseDuration, type AgentTapConfig } from '@sluice/config';
import { parseHostPort, parseUpstreamUrl } from '../cli/address.js';
import type { TapOptions } from '../options.js';

/** Where the agent's key tree holds the in-process tap's configuration. */
const KEY = 'tap';

/**
 * The options of the tap served by the agent, from the agent's `tap` keys (checked by the
 * configuration schema: formats, bounds, an upstream when enabled), or the problems of the
 * addresses the schema's formats let through and the tap cannot use. What only a separate
 * tap has (its agent address, admin server, TLS to the agent, its own log level and shutdown
 * timeout, the agent's reachability) is left inert: the tap asks this process, shares the
 * agent's /metrics, logger and health, and stops in the agent's shutdown.
 */
export function inProcessTapOptions(c: AgentTapConfig): TapOptions | { problems: string[] } {
  const problems: string[] = [];
  const listen = parseHostPort(c.listen, { anyHost: true, minPort: 0 });
  if (typeof listen === 'string') problems.push(`${KEY}.listen: ${listen}`);
  const upstream = parseUpstreamUrl(c.upstream);
  if (typeof upstream === 'string') problems.push(`${KEY}.upstream: ${upstream}`);
  if (typeof listen === 'string' || typeof upstream === 'string') return { problems };
  return {
    listen,
    upstream,
    agent: 'in-process',
    controlPoint: c.control_point,
    admin: { host: '127.0.0.1', port: 0 },
    bodyBytes: c.body_bytes,
    checkTimeoutMs: parseDuration(c.check_timeout),
    upstreamTimeoutMs: parseDuration(c.upstream_timeout),
    shutdownTimeoutMs: 10_000,
    failClosed: c.fail_closed,
    logLevel: 'info',
    maxRequestHeaderBytes: c.max_request_header_bytes,
    maxResponseHeaderBytes: c.max_response_header_bytes,
    maxRequestHeaders: c.max_request_headers,
    maxResponseHeaders: c.max_response_headers,
    mergeSlashes: c.merge_slashes,
    agentTls: { ca: '', cert: '', key: '' },
    agentUnavailableGraceMs: 0,
    failOpenSilently: true,
  };
}
