// Agents of one group sharing rate-limit buckets through the distributed
// counter cache, on real etcd: start them, wait for their ring, publish a
// rate limiter the way the controller does (libs/policies published.ts), and
// send flows with the gRPC Check API.
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Ring } from '@sluice/distcache';
import { grpcClient, unaryCall, type GrpcClient } from './clients.js';
import { endpointsJson, type EtcdServer } from './etcd.js';
import type { Netns } from './netns.js';
import { processEnv, ROOT, spawnProc, startAgent, until, waitReady, type SluiceProcess } from './processes.js';

export const CP = 'ingress-dc';

export interface DistAgent {
  readonly proc: SluiceProcess;
  readonly check: GrpcClient;
  readonly group: string;
}

export interface DistStats {
  id: string;
  group: string;
  ring: string[];
  members: Array<{ id: string; state: string; in_ring: boolean }>;
  keys_owned: number;
  fallbacks: number;
  /** Fallbacks that admitted (on the agent's share). */
  fallbacks_admitted: number;
  handovers: number;
  dropped_packets: number;
  operations: { local: number; remote: number; served: number };
}

/** Starts an agent of `group` on `etcd` (loopback, ports picked at bind time). */
export async function startDistAgent(t: TestContext, etcd: EtcdServer, group = 'default', env: Record<string, string> = {}): Promise<DistAgent> {
  const proc = await startAgent(t, { startMs: 60_000, env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_AGENT_AGENT_INFO_AGENT_GROUP: group, ...env } });
  return { proc, check: grpcClient(t, 'flowControl', proc.address), group };
}

/** The group key of the agents the tests start beyond loopback (dist_cache.auth.keys). */
export const GROUP_KEY = 'e2e-group-key-0123456789abcdef';

/**
 * Dist-cache addresses on `host` (ports picked at bind time), e.g. the root end of a test namespace's link,
 * with the group key (required beyond loopback).
 */
export function distCacheEnv(host: string, key = GROUP_KEY): Record<string, string> {
  return { SLUICE_AGENT_DIST_CACHE_BIND_ADDR: `${host}:0`, SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: `${host}:0`, SLUICE_AGENT_DIST_CACHE_AUTH_KEYS: key };
}

/**
 * Starts an agent of `group` inside the test namespace `ns`: its dist cache
 * on the namespace end of the data link, etcd at `etcdEndpoint` (reachable
 * over that link), its gRPC and HTTP on the namespace end of the control
 * link (what the test talks to; a partition leaves it up).
 */
export async function startDistAgentIn(t: TestContext, ns: Netns, etcdEndpoint: string, group = 'default'): Promise<DistAgent> {
  const env = processEnv('agent', {
    SLUICE_AGENT_ETCD_ENDPOINTS: JSON.stringify([etcdEndpoint]),
    SLUICE_AGENT_AGENT_INFO_AGENT_GROUP: group,
    SLUICE_AGENT_SERVER_LISTENER_ADDR: `${ns.control.nsAddr}:0`,
    ...distCacheEnv(ns.data.nsAddr),
  });
  const [bin, ...args] = ns.exec([join(ROOT, 'bin', 'sluice-agent')]);
  const p = spawnProc(t, bin ?? 'ip', args, env);
  const line = await p.waitForLine(/serving gRPC and HTTP/, 60_000);
  const address = (JSON.parse(line) as { meta: { address: string } }).meta.address;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  const proc: SluiceProcess = { ...p, port, base: `http://${ns.control.nsAddr}:${port}`, address: `${ns.control.nsAddr}:${port}` };
  await waitReady(proc.base, 60_000);
  return { proc, check: grpcClient(t, 'flowControl', proc.address), group };
}

export async function startDistAgents(t: TestContext, etcd: EtcdServer, n: number, group = 'default'): Promise<DistAgent[]> {
  const out: DistAgent[] = [];
  for (let i = 0; i < n; i++) out.push(await startDistAgent(t, etcd, group));
  return out;
}

export async function stats(a: DistAgent): Promise<DistStats> {
  const r = await fetch(`${a.proc.base}/v1/distcache/stats`);
  return await r.json() as DistStats;
}

/** Waits until every agent's ring has exactly `size` members (the same ones). */
export async function untilRing(agents: DistAgent[], size: number, ms = 20_000): Promise<string[]> {
  let rings: string[][] = [];
  await until(async () => {
    rings = await Promise.all(agents.map(async (a) => (await stats(a)).ring));
    return rings.every((r) => r.length === size && r.join() === rings[0].join());
  }, ms, `rings of ${size} (last seen: ${JSON.stringify(rings)})`);
  return rings[0];
}

export function rateLimiterConfig(group: string, policy: string, id: string, lazy = false): string {
  return JSON.stringify({
    kind: 'rate_limiter', policy_name: policy, policy_hash: 'h1', component_id: id, agent_group: group,
    selectors: [{ control_point: CP, agent_group: group }],
    parameters: { label_key: 'user', interval_ms: 3_600_000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: lazy, num_sync: 4 } },
  });
}

export function rateLimiterDecision(capacity: number): string {
  return JSON.stringify({ kind: 'rate_limiter', bucket_capacity: capacity, fill_amount: 0, pass_through: false });
}

export const cfgKey = (group: string, policy: string, id: string): string => `sluice/config/${group}/${policy}/${id}`;
export const decKey = (group: string, policy: string, id: string): string => `sluice/decisions/${group}/${policy}/${id}`;

/** A key's owner as the agents' ring places it (the bucket key of the distributed store). */
export function ownerOf(ring: string[], policy: string, id: string, label: string): string | undefined {
  return new Ring(ring).owner(`${policy}/${id}|${label}`);
}

export type Outcome = 'accepted' | 'rejected' | 'error';

export async function checkFlow(a: DistAgent, user: string, timeoutMs = 5000): Promise<Outcome> {
  try {
    const r = await unaryCall<{ decision_type: string }>(a.check, 'Check', { control_point: CP, labels: { user } }, timeoutMs);
    return r.decision_type === 'DECISION_TYPE_ACCEPTED' ? 'accepted' : 'rejected';
  } catch {
    return 'error';
  }
}

export interface Tally { accepted: number; rejected: number; errors: number; maxMs: number }

/** `n` flows of `user` on one agent, `concurrency` at a time. */
export async function burst(a: DistAgent, user: string, n: number, concurrency = 4): Promise<Tally> {
  const t: Tally = { accepted: 0, rejected: 0, errors: 0, maxMs: 0 };
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) {
      next++;
      const t0 = Date.now();
      const o = await checkFlow(a, user);
      t.maxMs = Math.max(t.maxMs, Date.now() - t0);
      if (o === 'accepted') t.accepted++;
      else if (o === 'rejected') t.rejected++;
      else t.errors++;
    }
  }));
  return t;
}

/** Flows of `user` at about `perSec` on one agent until `stop()` resolves; every answer tallied. */
export function traffic(a: DistAgent, user: string | (() => string), perSec: number): { stop(): Promise<Tally> } {
  const t: Tally = { accepted: 0, rejected: 0, errors: 0, maxMs: 0 };
  const pending = new Set<Promise<void>>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = Date.now();
      const p = checkFlow(a, typeof user === 'string' ? user : user()).then((o) => {
        t.maxMs = Math.max(t.maxMs, Date.now() - t0);
        if (o === 'accepted') t.accepted++;
        else if (o === 'rejected') t.rejected++;
        else t.errors++;
      });
      pending.add(p);
      void p.finally(() => pending.delete(p));
      await new Promise((r) => setTimeout(r, 1000 / perSec));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await Promise.all([...pending]);
      return t;
    },
  };
}

export function sum(ts: Tally[]): Tally {
  return ts.reduce((a, b) => ({ accepted: a.accepted + b.accepted, rejected: a.rejected + b.rejected, errors: a.errors + b.errors, maxMs: Math.max(a.maxMs, b.maxMs) }), { accepted: 0, rejected: 0, errors: 0, maxMs: 0 });
}

/**
 * Publishes a rate limiter with `capacity` (no refill) for `group` and waits
 * until every agent enforces it: capacity 0 first (a probe is rejected
 * everywhere), then the real capacity (a fresh probe is accepted everywhere).
 */
export async function publishLimit(put: (key: string, value: string) => Promise<unknown>, agents: DistAgent[], group: string, policy: string, capacity: number, lazy = false): Promise<void> {
  await put(decKey(group, policy, 'root.0'), rateLimiterDecision(0));
  await put(cfgKey(group, policy, 'root.0'), rateLimiterConfig(group, policy, 'root.0', lazy));
  let probe = 0;
  for (const a of agents) await until(async () => (await checkFlow(a, `zero-probe-${probe++}`)) === 'rejected', 10_000, 'limiter enforced');
  await put(decKey(group, policy, 'root.0'), rateLimiterDecision(capacity));
  for (const a of agents) await until(async () => (await checkFlow(a, `cap-probe-${probe++}`)) === 'accepted', 10_000, `capacity ${capacity} applied`);
}
