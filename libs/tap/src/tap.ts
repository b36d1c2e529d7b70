import { onceShutdown, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type tls from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { createAdminServer } from './admin.js';
import { watchAgent, type AgentWatch } from './agent-watch.js';
import type { Checker } from './check/ask-agent.js';
import { CheckHttpClient } from './check/client.js';
import { NO_FLOW_ENDS, type FlowEndSink } from './check/flow-end.js';
import { requestHandler, upgradeHandler } from './handler.js';
import { routeByPreface } from './h2/preface.js';
import { createH2Front } from './h2/server.js';
import type { H2Context } from './h2/stream-handler.js';
import { createH2Upstream } from './h2/upstream.js';
import { closed, listen } from './listen.js';
import { createUpstreamPool } from './proxy/pooled-forward.js';
import { createTapLogger } from './telemetry.js';
import { createTapMetrics, type TapMetrics } from './metrics.js';
import { agentTlsOn, type AgentTlsFiles, type HostPort, type TapOptions } from './options.js';
import type { TunnelSet } from './proxy/upgrade.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface TapDeps {
  /** A JSON-lines logger on stderr at `options.logLevel` when absent. */
  logger?: Logger;
  /** Where the tap's metrics go (a new registry when absent). */
  registry?: Registry;
  /** Answers checks; a gRPC client to `options.agent` when absent. */
  checker?: Checker;
  /** Where flow ends go; absent, FlowEnd calls on the check client's connection to `options.agent` (none with a `checker` of its own). */
  flowEnds?: FlowEndSink;
  /**
   * Serve /metrics, /healthz and /readyz on `options.admin` (default true). False when the
   * process that runs the tap serves its own (the agent, for its in-process tap): then
   * `adminAddress` is port 0.
   */
  adminServer?: boolean;
}

export interface Tap extends Lifecycle {
  /** Where the proxy listens. */
  readonly address: HostPort;
  /** Where /metrics and /healthz are served (port 0 when the tap has no admin server of its own). */
  readonly adminAddress: HostPort;
  readonly metrics: TapMetrics;
  /**
   * Stops accepting, lets in-flight requests (and upgraded connections) finish
   * for up to `deadlineMs` (default: the shutdown timeout), then closes what is
   * left, the agent channel and the admin server. Idempotent.
   */
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

const IDLE_SWEEP_MS = 50;

/** The PEM contents of the TLS files to the agent; throws naming the flag of a file that cannot be read. */
function agentTlsMaterial(files: AgentTlsFiles): { ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined {
  if (!agentTlsOn(files)) return undefined;
  const read = (flag: string, file: string): Buffer | undefined => {
    if (file === '') return undefined;
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`--${flag} ${file}: cannot be read: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  };
  return { ca: read('agent-tls-ca', files.ca), cert: read('agent-tls-cert', files.cert), key: read('agent-tls-key', files.key) };
}

/** Starts the proxy and the admin server; rejects (having closed everything) when a port cannot be bound. */
export async function startTap(options: TapOptions, deps: TapDeps = {}): Promise<Tap> {
  const registry = deps.registry ?? new Registry();
  const ownLogger = deps.logger === undefined ? createTapLogger(options.logLevel, registry) : undefined;
  const logger: Logger = deps.logger ?? (ownLogger as Logger);
  const metrics = createTapMetrics(registry);
  let material: ReturnType<typeof agentTlsMaterial>;
  try {
    material = agentTlsMaterial(options.agentTls);
  } catch (err) {
    await ownLogger?.close();
    throw err;
  }
  const connectionTls: tls.ConnectionOptions | undefined = material === undefined ? undefined
    : { ...(material.ca ? { ca: material.ca } : {}), ...(material.cert ? { cert: material.cert } : {}), ...(material.key ? { key: material.key } : {}) };
  const ownClient = deps.checker === undefined ? new CheckHttpClient(options.agent, connectionTls === undefined ? {} : { connection: { tls: connectionTls } }) : undefined;
  const checker: Checker = deps.checker ?? (ownClient as CheckHttpClient);
  // FlowEnd calls go on the checks' connection to the agent.
  const ownFlowEnds = deps.flowEnds === undefined ? ownClient?.flowEnds({ onFailure: (reason) => metrics.flowEndFailure(reason) }) ?? NO_FLOW_ENDS : undefined;
  const flowEnds: FlowEndSink = deps.flowEnds ?? (ownFlowEnds as FlowEndSink);
  const pool = createUpstreamPool(options.upstream, options);
  const upstreamAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256, scheduling: 'lifo' });
  const tunnels: TunnelSet = new Set();
  let draining = false;

  const h2Upstream = options.upstreamProtocol === 'h2c' ? createH2Upstream(options.upstream, options.maxResponseHeaderBytes) : undefined;
  const ctx: H2Context = {
    checker,
    controlPoint: options.controlPoint,
    checkTimeoutMs: options.checkTimeoutMs,
    failClosed: options.failClosed,
    bodyBytes: options.bodyBytes,
    upstream: options.upstream,
    agent: upstreamAgent,
    pool,
    upstreamTimeoutMs: options.upstreamTimeoutMs,
    maxResponseHeaderBytes: options.maxResponseHeaderBytes,
    maxRequestHeaders: options.maxRequestHeaders,
    maxResponseHeaders: options.maxResponseHeaders,
    mergeSlashes: options.mergeSlashes,
    flowEnds,
    metrics,
    logger,
    tunnels,
    draining: () => draining,
    h2Upstream,
  };

  // Long keep-alive for the client side (load balancers keep idle connections
  // a minute); no whole-request timeout, so that long uploads stream.
  const server = http.createServer({ keepAliveTimeout: 75_000, requestTimeout: 0, headersTimeout: 60_000, maxHeaderSize: options.maxRequestHeaderBytes }, requestHandler(ctx));
  // Node keeps every field (the head is bounded in bytes) and the handler refuses a request past the count;
  // with a count bound Node would cut the list short silently, or answer 400 itself.
  server.maxHeadersCount = 0;
  server.on('checkContinue', requestHandler(ctx));
  server.on('upgrade', upgradeHandler(ctx));
  // HTTP/2 with prior knowledge on the same port: a connection opening with its preface goes to the HTTP/2 server.
  const h2 = createH2Front(ctx, { maxHeaderListBytes: options.maxRequestHeaderBytes });
  const router = routeByPreface(server, (socket) => h2.accept(socket), 60_000);
  // No 'clientError' listener: Node's own answers 400, 431 or 408 and never
  // writes into a response already under way on the connection.
  let watch: AgentWatch | undefined;
  const admin = deps.adminServer === false ? undefined : createAdminServer(registry, () => !draining, () => watch?.notReady());

  let address: HostPort;
  let adminAddress: HostPort;
  try {
    address = await listen(server, options.listen);
    adminAddress = admin === undefined ? { host: '', port: 0 } : await listen(admin, options.admin);
  } catch (err) {
    await Promise.all([closed(server), admin === undefined ? undefined : closed(admin)]);
    void ownClient?.shutdown();
    void ownFlowEnds?.shutdown();
    upstreamAgent.destroy();
    await pool.destroy();
    await h2Upstream?.close(0);
    await ownLogger?.close();
    throw err;
  }
  ownClient?.connect(); // dial the agent now, not on the first request
  if (ownClient !== undefined) {
    watch = watchAgent({ agent: ownClient, address: options.agent, graceMs: options.agentUnavailableGraceMs, failOpenSilently: options.failOpenSilently, logger, metrics });
  }
  logger.info('tap started', {
    listen: address, admin: adminAddress, upstream: options.upstream, upstream_protocol: options.upstreamProtocol ?? 'http1', agent: options.agent, control_point: options.controlPoint, agent_tls: material !== undefined,
  });

  const shutdown = async (deadlineMs: number): Promise<void> => {
    draining = true;
    logger.info('tap shutting down', { deadline_ms: deadlineMs, tunnels: tunnels.size });
    const serverClosed = closed(server);
    h2.drain();
    router.destroyUndecided();
    let finished = false;
    void serverClosed.then(() => { finished = true; });
    const until = Date.now() + deadlineMs;
    // Keep-alive connections become idle one by one as their requests finish: close each then.
    while (Date.now() < until && (!finished || tunnels.size > 0 || !h2.idle())) {
      server.closeIdleConnections();
      await sleep(Math.min(IDLE_SWEEP_MS, Math.max(1, until - Date.now())));
    }
    server.closeAllConnections();
    h2.destroy();
    for (const socket of tunnels) socket.destroy();
    await serverClosed;
    await watch?.shutdown();
    await ownFlowEnds?.shutdown();
    await ownClient?.shutdown();
    upstreamAgent.destroy();
    await pool.destroy();
    await h2Upstream?.close(Math.max(0, until - Date.now()));
    if (admin !== undefined) await closed(admin);
    logger.info('tap stopped');
    await ownLogger?.close();
  };

  return {
    address,
    adminAddress,
    metrics,
    shutdown: onceShutdown('tap', (deadlineMs) => shutdown(deadlineMs), options.shutdownTimeoutMs),
  };
}
