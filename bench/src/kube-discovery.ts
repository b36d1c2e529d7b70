/**
 * Kubernetes service discovery at 10 000 endpoints, against the test API server (e2e/src/kube-api)
 * in the same process: the memory of the entity map (heap growth of the agent's cache plus the
 * informers' objects, per endpoint) against a plain Map of the same entities built directly, and
 * the time from an EndpointSlice change (its service label patched) to the first lookup of its
 * IP carrying the new service (what the next flow gets), against the PATCH's own round trip.
 *
 *   npx tsc -b libs/kube e2e && npx tsc -p bench && node --expose-gc bench/dist/kube-discovery.js [services=100] [samples=200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EntityCache, type Entity } from '@sluice/discovery';
import { KubeClient, KubernetesDiscovery } from '@sluice/kube';
import { printResult } from './support/result-line.js';

interface KubeApiModule {
  KubeApiServer: new () => { start(): Promise<string>; close(): Promise<void> };
  writeKubeconfig(path: string, url: string): string;
}

const SERVICES = Number(process.argv[2] ?? 100);
const PER_SLICE = 100;
const SAMPLES = Number(process.argv[3] ?? 200);
const ENDPOINTS = SERVICES * PER_SLICE;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

/** A cache that tells when an IP's services change (no polling). */
class WatchedCache extends EntityCache {
  waiter: { ip: string; service: string; done: () => void } | undefined;
  override add(e: Entity): void {
    super.add(e);
    const w = this.waiter;
    if (w && e.ip_address === w.ip && this.servicesByIp(w.ip).includes(w.service)) {
      this.waiter = undefined;
      w.done();
    }
  }
}

function heap(): number {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

const ip = (s: number, e: number) => `10.${Math.floor(s / 250)}.${s % 250}.${e + 1}`;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const mod = await import(new URL('../../e2e/dist/kube-api/index.js', import.meta.url).href) as KubeApiModule;
const server = new mod.KubeApiServer();
const url = await server.start();
const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-kube-'));
const kubeconfig = mod.writeKubeconfig(join(dir, 'kubeconfig'), url);
const api = async (method: string, path: string, body: unknown, type = 'application/json'): Promise<void> => {
  const r = await fetch(`${url}${path}`, { method, body: JSON.stringify(body), headers: { 'content-type': type } });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  await r.arrayBuffer();
};
const SLICES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
for (let s = 0; s < SERVICES; s++) {
  await api('POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: `svc-${s}` }, spec: { clusterIP: 'None', ports: [{ port: 80 }] } });
  await api('POST', SLICES, {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: `svc-${s}-a`, labels: { 'kubernetes.io/service-name': `svc-${s}` } },
    addressType: 'IPv4', ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    endpoints: Array.from({ length: PER_SLICE }, (_, e) => ({
      addresses: [ip(s, e)], conditions: { ready: true }, nodeName: 'node-a',
      targetRef: { kind: 'Pod', name: `svc-${s}-pod-${e}`, namespace: 'default', uid: `uid-${s}-${e}` },
    })),
  });
}

// Baseline: the same entities in a plain Map, built directly (dropped when the function returns).
function plainMapBytes(): number {
  const start = heap();
  const plain = new Map<string, Entity>();
  for (let s = 0; s < SERVICES; s++) {
    for (let e = 0; e < PER_SLICE; e++) {
      plain.set(ip(s, e), { ip_address: ip(s, e), uid: `uid-${s}-${e}`, name: `svc-${s}-pod-${e}`, namespace: 'default', node_name: 'node-a', services: [`svc-${s}.default.svc.cluster.local`] });
    }
  }
  const bytes = (heap() - start) / ENDPOINTS;
  if (plain.size !== ENDPOINTS) throw new Error('baseline map incomplete');
  return bytes;
}
const plainBytes = plainMapBytes();

const cache = new WatchedCache();
const client = KubeClient.load({ env: { KUBECONFIG: kubeconfig } });
const discovery = new KubernetesDiscovery({ client, cache, scope: { nodeName: 'node-a' } });
const before = heap();
const synced = new Promise<void>((resolve) => {
  const check = () => (cache.servicesByIp(ip(SERVICES - 1, PER_SLICE - 1)).length > 0 && cache.entities().length >= ENDPOINTS ? resolve() : setTimeout(check, 20));
  check();
});
const t0 = performance.now();
discovery.start();
client.start();
await synced;
const syncMs = performance.now() - t0;
const discoveryBytes = (heap() - before) / ENDPOINTS;

// Latency: a slice's service label changes; the time until a lookup of one of its IPs has the new service.
const changeMs: number[] = [];
const patchMs: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const s = i % SERVICES;
  const service = `moved-${i}`;
  const seen = new Promise<void>((resolve) => { cache.waiter = { ip: ip(s, i % PER_SLICE), service: `${service}.default.svc.cluster.local`, done: resolve }; });
  const start = performance.now();
  await api('PATCH', `${SLICES}/svc-${s}-a`, { metadata: { labels: { 'kubernetes.io/service-name': service } } }, 'application/merge-patch+json');
  patchMs.push(performance.now() - start);
  await seen;
  changeMs.push(performance.now() - start);
}

discovery.shutdown();
client.shutdown();
await server.close();
rmSync(dir, { recursive: true, force: true });

console.log(`endpoints ${ENDPOINTS} (${SERVICES} services x ${PER_SLICE}), initial sync ${syncMs.toFixed(0)} ms`);
console.log(`memory per endpoint: discovery (cache + informers) ${discoveryBytes.toFixed(0)} B, plain Map baseline ${plainBytes.toFixed(0)} B, ratio ${(discoveryBytes / plainBytes).toFixed(2)}`);
console.log(`slice change -> lookup with the new service (${SAMPLES} samples): p50 ${pct(changeMs, 50).toFixed(2)} ms, p99 ${pct(changeMs, 99).toFixed(2)} ms; PATCH round trip baseline p50 ${pct(patchMs, 50).toFixed(2)} ms, p99 ${pct(patchMs, 99).toFixed(2)} ms; ratio p99 ${(pct(changeMs, 99) / pct(patchMs, 99)).toFixed(2)}`);
printResult('kube-discovery', {
  endpoints: ENDPOINTS,
  bytes_per_endpoint: Math.round(discoveryBytes),
  baseline_bytes_per_endpoint: Math.round(plainBytes),
  memory_ratio: (discoveryBytes / plainBytes).toFixed(2),
  change_p50_ms: pct(changeMs, 50).toFixed(2),
  change_p99_ms: pct(changeMs, 99).toFixed(2),
  patch_p99_ms: pct(patchMs, 99).toFixed(2),
  latency_ratio_p99: (pct(changeMs, 99) / pct(patchMs, 99)).toFixed(2),
  sync_ms: Math.round(syncMs),
});
process.exit(0);
