/**
 * What the policy benches run against: a real etcd (/usr/bin/etcd, free loopback ports, a
 * temporary data directory), the real controller and real agents (their compiled mains, as
 * bin/ execs them) pointed at it, and small clients for the controller's policy API, the
 * agents' `GET /v1/policies/enforced` and the gRPC Check API. Every process is killed when
 * the bench process exits (child-server's exit hook).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '@sluice/proto';
import { ROOT } from './bench-paths.js';
import { startChildServer, type ChildServer } from './child-server.js';

const LISTENING = /"msg":"server listening".*?"port":(\d+)/;

export interface BenchEtcd { readonly endpoint: string; stop(): Promise<void> }

/** A free loopback port (free when asked). */
async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as import('node:net').AddressInfo; s.close(() => resolve(port)); });
  });
}

/** Starts etcd on free loopback ports and waits until it is healthy. */
export async function startEtcd(): Promise<BenchEtcd> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-etcd-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const client = await freePort();
  let peer = await freePort();
  while (peer === client) peer = await freePort();
  const endpoint = `http://127.0.0.1:${client}`;
  const server = await startChildServer({
    name: 'etcd',
    command: process.env.SLUICE_ETCD_BIN ?? '/usr/bin/etcd',
    args: ['--name', 'bench', '--data-dir', dir, '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
      '--listen-peer-urls', `http://127.0.0.1:${peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`,
      '--initial-cluster', `bench=http://127.0.0.1:${peer}`, '--logger', 'zap', '--log-level', 'info'],
    // etcd logs its client URL once it serves; the port is the one given.
    portPattern: new RegExp(`"msg":"serving client traffic[^\n]*"address":"127\\.0\\.0\\.1:(${client})"`),
    startTimeoutMs: 30_000,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const r = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
      if (((await r.json()) as { health?: string }).health === 'true') break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error('etcd did not become healthy within 30 s');
    await sleep(50);
  }
  return { endpoint, stop: async () => { await server.stop(); rmSync(dir, { recursive: true, force: true }); } };
}

function baseEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() };
}

/** The controller on a free port, publishing to `etcd`; Prometheus is not used by these benches. */
export function startController(etcd: BenchEtcd): Promise<ChildServer> {
  return startChildServer({
    name: 'sluice-controller',
    command: process.execPath,
    args: [path.join(ROOT, 'apps', 'controller', 'dist', 'main.js')],
    env: {
      ...baseEnv(),
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]),
      SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
      SLUICE_CONTROLLER_SERVER_LISTENER_ADDR: '127.0.0.1:0',
    },
    portPattern: LISTENING,
    startTimeoutMs: 60_000,
  });
}

/** Extra Node flags for the agent from SLUICE_NODE_FLAGS (as bin/sluice-agent takes them), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
function nodeFlags(): string[] {
  return (process.env.SLUICE_NODE_FLAGS ?? '').split(/\s+/).filter((f) => f !== '');
}

/** An agent of group `default` on a free port, watching `etcd`; no local limiters. */
export async function startPolicyAgent(etcd: BenchEtcd): Promise<ChildServer> {
  return startChildServer({
    name: 'sluice-agent',
    command: process.execPath,
    args: [...nodeFlags(), path.join(ROOT, 'apps', 'agent', 'dist', 'main.js')],
    env: {
      ...baseEnv(),
      SLUICE_AGENT_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]),
      SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_DIST_CACHE_BIND_ADDR: `127.0.0.1:${await freePort()}`,
      SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: `127.0.0.1:${await freePort()}`,
      SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'bench', services: ['bench-svc'] }]),
    },
    portPattern: LISTENING,
    startTimeoutMs: 60_000,
  });
}

/** A rate-limiter policy spec: `capacity` tokens, `fill` per second, one bucket per `labelKey`. */
export function rateLimitPolicy(o: { controlPoint: string; capacity: number; fill: number; labelKey: string; matchLabels?: Record<string, string> }): unknown {
  return {
    circuit: {
      evaluation_interval: '10s',
      components: [{ flow_control: { rate_limiter: {
        in_ports: { bucket_capacity: { constant_signal: { value: o.capacity } }, fill_amount: { constant_signal: { value: o.fill } } },
        parameters: { label_key: o.labelKey, interval: '1s' },
        selectors: [{ control_point: o.controlPoint, ...(o.matchLabels === undefined ? {} : { label_matcher: { match_labels: o.matchLabels } }) }],
      } } }],
    },
  };
}

/**
 * A quota scheduler's policy: a bucket of `capacity` per value of `labelKey`, filled by `fill` per
 * second, spent through a weighted-fair queue with one workload (`tier: gold`, priority 100).
 */
export function quotaPolicy(o: { controlPoint: string; capacity: number; fill: number; labelKey: string; interval?: string }): unknown {
  return {
    circuit: {
      evaluation_interval: '10s',
      components: [{ flow_control: { quota_scheduler: {
        in_ports: { bucket_capacity: { constant_signal: { value: o.capacity } }, fill_amount: { constant_signal: { value: o.fill } } },
        rate_limiter: { label_key: o.labelKey, interval: o.interval ?? '1s' },
        scheduler: { workloads: [{ name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100 } }] },
        selectors: [{ control_point: o.controlPoint }],
      } } }],
    },
  };
}

async function send(method: string, url: string, body?: unknown): Promise<{ status: number; text: string }> {
  const r = await fetch(url, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: r.status, text: await r.text() };
}

/** POST /v1/policies/{name}; throws unless 200. */
export async function applyPolicy(controllerPort: number, name: string, spec: unknown): Promise<void> {
  const r = await send('POST', `http://127.0.0.1:${controllerPort}/v1/policies/${name}`, { policy: spec });
  if (r.status !== 200) throw new Error(`POST /v1/policies/${name}: ${r.status} ${r.text.slice(0, 300)}`);
}

/** DELETE /v1/policies/{name}; throws unless 200. */
export async function deletePolicy(controllerPort: number, name: string): Promise<void> {
  const r = await send('DELETE', `http://127.0.0.1:${controllerPort}/v1/policies/${name}`);
  if (r.status !== 200) throw new Error(`DELETE /v1/policies/${name}: ${r.status} ${r.text.slice(0, 300)}`);
}

export interface EnforcedComponent { policy_name: string; component_id: string; decision: unknown }

/** The agent's GET /v1/policies/enforced. */
export async function enforced(agentPort: number): Promise<{ synced: boolean; components: EnforcedComponent[] }> {
  const r = await send('GET', `http://127.0.0.1:${agentPort}/v1/policies/enforced`);
  return JSON.parse(r.text) as { synced: boolean; components: EnforcedComponent[] };
}

/** Polls `cond` every `everyMs` until it holds; throws after `ms`. */
export async function waitUntil(what: string, cond: () => Promise<boolean>, ms = 30_000, everyMs = 50): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(everyMs);
  }
}

/** Waits until every agent is synced and enforces exactly the components of `policies`, each with its decision. */
export async function waitEnforcing(agentPorts: number[], policies: string[], ms = 30_000): Promise<void> {
  const want = [...policies].sort().join(',');
  await waitUntil(`agents enforcing [${want}]`, async () => {
    for (const port of agentPorts) {
      const e = await enforced(port);
      const names = e.components.filter((c) => c.decision !== null).map((c) => c.policy_name).sort().join(',');
      if (!e.synced || names !== want || e.components.length !== policies.length) return false;
    }
    return true;
  }, ms);
}

type CheckCb = (err: grpc.ServiceError | null, res?: { decision_type?: string }) => void;
interface CheckStub extends grpc.Client {
  Check(req: unknown, opts: grpc.CallOptions, cb: CheckCb): grpc.ClientUnaryCall;
}

/** A grpc-js client of an agent's FlowControlService: `check` resolves true when the flow is accepted. */
export interface CheckClient {
  check(controlPoint: string, labels: Record<string, string>): Promise<boolean>;
  close(): void;
}

export function checkClient(port: number): CheckClient {
  const Ctor = serviceClient('flowControl');
  const client = new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as CheckStub;
  return {
    check: (controlPoint, labels) => new Promise((resolve, reject) => {
      client.Check({ control_point: controlPoint, labels }, { deadline: Date.now() + 5000 }, (err, res) => {
        if (err !== null) reject(err);
        else resolve(res?.decision_type === 'DECISION_TYPE_ACCEPTED');
      });
    }),
    close: () => client.close(),
  };
}
