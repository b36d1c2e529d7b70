// The entity map at 10 000 endpoints (100 EndpointSlices of 100): bytes per endpoint of the
// EntityCache and the discovery's indexes (the slices themselves, held by the informer, are not
// counted), and the time to apply one slice change. Prints both; fails when an endpoint costs
// more than 2 KiB.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EntityCache } from '@sluice/discovery';
import type { k8s } from './k8s.js';
import type { KubeClient } from './kube-client.js';
import { KubernetesDiscovery } from './kubernetes-discovery.js';
import type { InformerHandler } from './shared-informer.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const N = 10_000;
const PER_SLICE = 100;

function slices(): k8s.V1EndpointSlice[] {
  const out: k8s.V1EndpointSlice[] = [];
  for (let s = 0; s < N / PER_SLICE; s++) {
    const endpoints: k8s.V1Endpoint[] = [];
    for (let i = 0; i < PER_SLICE; i++) {
      const n = s * PER_SLICE + i;
      endpoints.push({ addresses: [`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`], nodeName: `node-${n % 50}`, targetRef: { kind: 'Pod', name: `svc${s}-pod-${i}`, namespace: 'shop', uid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` } });
    }
    out.push({ metadata: { name: `svc${s}-abcde`, namespace: 'shop', labels: { 'kubernetes.io/service-name': `svc${s}` } }, addressType: 'IPv4', endpoints });
  }
  return out;
}

test('the entity map at 10 000 endpoints: bytes per endpoint, and the time to apply a slice change', (t) => {
  const all = slices();
  let handler: InformerHandler<k8s.V1EndpointSlice> | undefined;
  const client = {
    api: () => ({}),
    requestOptions: () => undefined,
    informer: (spec: { path: string }) => ({
      subscribe: (h: InformerHandler<k8s.V1EndpointSlice>) => {
        if (spec.path.includes('endpointslices')) handler = h;
        return () => undefined;
      },
      start: () => undefined,
    }),
  } as unknown as KubeClient;
  gc();
  const before = process.memoryUsage().heapUsed;
  const cache = new EntityCache();
  const d = new KubernetesDiscovery({ client, cache });
  d.start();
  for (const s of all) handler?.add?.(s);
  gc();
  const perEndpoint = (process.memoryUsage().heapUsed - before) / cache.size;
  assert.equal(cache.size, N);
  const times: number[] = [];
  for (let k = 0; k < 200; k++) {
    const i = k % all.length;
    const old = all[i];
    const moved = { ...old, metadata: { ...old.metadata, labels: { 'kubernetes.io/service-name': `moved${k}` } } };
    const t0 = process.hrtime.bigint();
    handler?.update?.(moved, old);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    all[i] = moved;
  }
  times.sort((a, b) => a - b);
  assert.deepEqual(cache.servicesByIp('10.0.0.0'), ['moved100.shop.svc.cluster.local']);
  t.diagnostic(`entity map: ${Math.round(perEndpoint)} bytes per endpoint at ${N} endpoints; a ${PER_SLICE}-endpoint slice change applied in p50 ${times[100].toFixed(2)} ms, p99 ${times[198].toFixed(2)} ms`);
  assert.ok(perEndpoint < 2048, `${Math.round(perEndpoint)} bytes per endpoint`);
});
