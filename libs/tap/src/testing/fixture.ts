import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { Registry } from 'prom-client';
import { silentLogger } from '../logger.js';
import type { TapOptions } from '../options.js';
import { startTap, type Tap } from '../tap.js';
import { ACCEPT, startCannedAgent, type CannedAgent, type CannedAnswer } from './canned-agent.js';
import type { CheckHTTPRequest } from '../check/types.js';

export interface Upstream {
  server: http.Server;
  port: number;
  /** Connections the upstream accepted. */
  connections: number;
}

/** A real HTTP server on 127.0.0.1, closed after the test. */
export async function startUpstream(t: TestContext, handler: http.RequestListener, options: http.ServerOptions = {}): Promise<Upstream> {
  const server = http.createServer(options, handler);
  const up: Upstream = { server, port: 0, connections: 0 };
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    up.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  up.port = (server.address() as AddressInfo).port;
  // Upgraded connections are not the server's any more: destroy every socket it accepted.
  t.after(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const s of sockets) s.destroy();
  }));
  return up;
}

export const TEST_OPTIONS: Omit<TapOptions, 'upstream' | 'agent'> = {
  listen: { host: '127.0.0.1', port: 0 },
  admin: { host: '127.0.0.1', port: 0 },
  controlPoint: 'ingress',
  bodyBytes: 8192,
  checkTimeoutMs: 1000,
  upstreamTimeoutMs: 10_000,
  shutdownTimeoutMs: 2000,
  failClosed: false,
  logLevel: 'error',
  maxRequestHeaderBytes: 65_536,
  maxResponseHeaderBytes: 65_536,
  maxRequestHeaders: 100,
  maxResponseHeaders: 100,
  mergeSlashes: true,
  agentTls: { ca: '', cert: '', key: '' },
  agentUnavailableGraceMs: 30_000,
  failOpenSilently: false,
};

/** A tap in front of `upstream`, asking `agentAddress`, shut down after the test. */
export async function startTestTap(t: TestContext, upstream: Pick<Upstream, 'port'>, agentAddress: string, overrides: Partial<TapOptions> = {}): Promise<{ tap: Tap; registry: Registry; base: string }> {
  const registry = new Registry();
  const tap = await startTap({ ...TEST_OPTIONS, upstream: { host: '127.0.0.1', port: upstream.port }, agent: agentAddress, ...overrides }, { logger: silentLogger, registry });
  t.after(() => tap.shutdown({ deadlineMs: 200 }));
  return { tap, registry, base: `http://127.0.0.1:${tap.address.port}` };
}

/** A canned agent closed after the test. */
export async function startTestAgent(t: TestContext, answer: (r: CheckHTTPRequest) => CannedAnswer = () => ACCEPT): Promise<CannedAgent> {
  const agent = await startCannedAgent(answer);
  t.after(() => agent.close());
  return agent;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One request with node:http; resolves with the whole answer. */
export function send(url: string, opts: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string | Buffer; agent?: http.Agent; maxHeaderSize?: number } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent ?? false, ...(opts.maxHeaderSize !== undefined ? { maxHeaderSize: opts.maxHeaderSize } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Reads a whole request body. */
export function readAll(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The value of a metric sample in the registry (0 when absent). */
export async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name) ?? registry.getSingleMetric(name.replace(/_(count|sum)$/, ''));
  if (metric === undefined) return 0;
  const data = await metric.get();
  let sum = 0;
  for (const v of data.values) {
    const sample = (v as { metricName?: string }).metricName;
    if (sample !== undefined && sample !== name) continue;
    const l = v.labels as Record<string, string | number>;
    if (Object.entries(labels).every(([k, x]) => String(l[k]) === x)) sum += v.value;
  }
  return sum;
}
