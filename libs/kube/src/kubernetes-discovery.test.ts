import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EntityCache } from '@sluice/discovery';
import { Registry } from 'prom-client';
import type { k8s } from './k8s.js';
import type { KubeClient } from './kube-client.js';
import { KubernetesDiscovery, type DiscoveryScope } from './kubernetes-discovery.js';
import type { InformerHandler } from './shared-informer.js';

/** A KubeClient stand-in whose informers are fed by the test. */
function fakeClient(): { client: KubeClient; feed: Map<string, InformerHandler<k8s.KubernetesObject>> } {
  const feed = new Map<string, InformerHandler<k8s.KubernetesObject>>();
  const client = {
    api: () => ({}),
    requestOptions: () => undefined,
    informer: (spec: { path: string }) => ({
      subscribe: (h: InformerHandler<k8s.KubernetesObject>) => {
        feed.set(spec.path, h);
        return () => feed.delete(spec.path);
      },
      start: () => undefined,
    }),
  } as unknown as KubeClient;
  return { client, feed };
}

const SLICES = '/apis/discovery.k8s.io/v1/endpointslices';
const SERVICES = '/api/v1/services';

function slice(name: string, service: string | undefined, endpoints: unknown[], addressType = 'IPv4'): k8s.V1EndpointSlice {
  return { metadata: { name, namespace: 'shop', labels: service === undefined ? {} : { 'kubernetes.io/service-name': service } }, addressType, endpoints } as unknown as k8s.V1EndpointSlice;
}

const ep = (ip: string, pod: string, node = 'n1'): unknown => ({ addresses: [ip], nodeName: node, targetRef: { kind: 'Pod', name: pod, namespace: 'shop', uid: `uid-${pod}` } });

function setup(scope?: DiscoveryScope) {
  const { client, feed } = fakeClient();
  const cache = new EntityCache();
  cache.add({ ip_address: '10.0.0.1', uid: 'static', services: ['static.svc'] });
  const registry = new Registry();
  const d = new KubernetesDiscovery({ client, cache, scope, registry });
  d.start();
  return { d, cache, slices: feed.get(SLICES)!, services: feed.get(SERVICES)!, registry };
}

test('endpoints become entities in the services of every slice listing them, merged with static entities at the same IP', () => {
  const { cache, slices } = setup();
  slices.add?.(slice('a', 'cart', [ep('10.0.0.1', 'p1'), ep('10.0.0.2', 'p2')]));
  slices.add?.(slice('b', 'checkout', [ep('10.0.0.2', 'p2')]));
  assert.deepEqual(cache.servicesByIp('10.0.0.2'), ['cart.shop.svc.cluster.local', 'checkout.shop.svc.cluster.local']);
  assert.deepEqual(cache.servicesByIp('10.0.0.1'), ['static.svc', 'cart.shop.svc.cluster.local']);
  assert.deepEqual(cache.getByUid('uid-p2'), { ip_address: '10.0.0.2', uid: 'uid-p2', name: 'p2', namespace: 'shop', node_name: 'n1', services: ['cart.shop.svc.cluster.local', 'checkout.shop.svc.cluster.local'] });
  slices.update?.(slice('b', 'checkout', []), slice('b', 'checkout', [ep('10.0.0.2', 'p2')]));
  assert.deepEqual(cache.servicesByIp('10.0.0.2'), ['cart.shop.svc.cluster.local']);
  slices.delete?.(slice('a', 'cart', []));
  assert.deepEqual(cache.servicesByIp('10.0.0.2'), []);
  assert.deepEqual(cache.servicesByIp('10.0.0.1'), ['static.svc'], 'the static entity stays');
});

test('a complete list drops slices that are gone; IPv6 endpoints of a pod get their own uid', () => {
  const { d, cache, slices } = setup();
  slices.add?.(slice('v4', 'cart', [ep('10.0.0.5', 'p5')]));
  slices.add?.(slice('v6', 'cart', [ep('fd00::5', 'p5')], 'IPv6'));
  assert.equal(cache.getByUid('uid-p5')?.ip_address, '10.0.0.5');
  assert.equal(cache.getByUid('uid-p5/ipv6')?.ip_address, 'fd00::5');
  slices.synced?.([slice('v6', 'cart', [ep('fd00::5', 'p5')], 'IPv6')]);
  assert.equal(cache.getByUid('uid-p5'), undefined);
  assert.equal(d.stats().endpointSlices, 1);
});

test('a daemonset keeps its node, a sidecar its pod', () => {
  const node = setup({ nodeName: 'n1' });
  node.slices.add?.(slice('a', 'cart', [ep('10.0.0.2', 'p2', 'n1'), ep('10.0.0.3', 'p3', 'n2')]));
  assert.deepEqual(node.cache.entities().map((e) => e.uid).sort(), ['static', 'uid-p2']);
  const pod = setup({ pod: { name: 'p3', namespace: 'shop' } });
  pod.slices.add?.(slice('a', 'cart', [ep('10.0.0.2', 'p2', 'n1'), ep('10.0.0.3', 'p3', 'n2')]));
  assert.deepEqual(pod.cache.entities().map((e) => e.uid).sort(), ['static', 'uid-p3']);
});

test('Services: cluster IPs are entities of the service, dual-stack too; headless services add none', () => {
  const { cache, services } = setup();
  services.add?.({ metadata: { name: 'cart', namespace: 'shop', uid: 's1' }, spec: { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10', 'fd00::10'] } } as k8s.V1Service);
  services.add?.({ metadata: { name: 'db', namespace: 'shop', uid: 's2' }, spec: { clusterIP: 'None' } } as k8s.V1Service);
  assert.deepEqual(cache.servicesByIp('10.96.0.10'), ['cart.shop.svc.cluster.local']);
  assert.deepEqual(cache.servicesByIp('fd00::10'), ['cart.shop.svc.cluster.local']);
  assert.equal(cache.size, 3);
  services.delete?.({ metadata: { name: 'cart', namespace: 'shop', uid: 's1' } } as k8s.V1Service);
  assert.equal(cache.size, 1);
});

test('unusable slices and endpoints are skipped and counted by reason, never thrown', async () => {
  const { d, cache, slices, registry } = setup();
  slices.add?.(slice('nolabel', undefined, [ep('10.0.1.1', 'x')]));
  slices.add?.(slice('fqdn', 'cart', [{ addresses: ['a.example'] }], 'FQDN'));
  slices.add?.(slice('odd', 'cart', [], 'Banana'));
  slices.add?.(slice('holes', 'cart', [null, {}, { addresses: [] }, { addresses: ['300.1.1.1'] }, { addresses: [7] }, ep('10.0.1.2', 'ok')]));
  slices.add?.({ metadata: { name: 'weird', namespace: 'shop', labels: { 'kubernetes.io/service-name': 'cart' } }, addressType: 'IPv4', endpoints: 'nope' } as unknown as k8s.V1EndpointSlice);
  slices.add?.({ metadata: undefined } as unknown as k8s.V1EndpointSlice);
  assert.deepEqual(d.stats().skipped, { no_service_label: 2, unsupported_address_type: 1, malformed: 2, no_addresses: 3, bad_address: 2 });
  assert.deepEqual(cache.servicesByIp('10.0.1.2'), ['cart.shop.svc.cluster.local']);
  const text = await registry.metrics();
  assert.match(text, /sluice_kubernetes_discovery_skipped_total\{reason="no_addresses"\} 3/);
});
