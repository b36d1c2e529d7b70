import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EntityCache, createStaticDiscovery, normalizeIp } from './index.js';

test('normalizeIp canonicalises mapped IPv4, brackets, zones and case', () => {
  assert.equal(normalizeIp('::ffff:1.2.3.4'), '1.2.3.4');
  assert.equal(normalizeIp('::FFFF:10.0.0.1'), '10.0.0.1');
  assert.equal(normalizeIp('[::1]'), '::1');
  assert.equal(normalizeIp('FE80::1%eth0'), 'fe80::1');
  assert.equal(normalizeIp(' 10.1.2.3 '), '10.1.2.3');
  assert.equal(normalizeIp('::ffff:not-an-ip'), '::ffff:not-an-ip');
  assert.equal(normalizeIp('pod.local'), 'pod.local');
});

test('static discovery answers services by IP, also for IPv4-mapped IPv6 peers', () => {
  const cache = createStaticDiscovery({
    entities: [
      { ip_address: '10.0.0.1', uid: 'a', name: 'pod-a', namespace: 'ns', node_name: 'n1', services: ['svc1.ns.svc.cluster.local', 'svc2'] },
      { ip_address: '2001:DB8::5', uid: 'b', services: ['v6svc'] },
    ],
  });
  assert.deepEqual(cache.servicesByIp('10.0.0.1'), ['svc1.ns.svc.cluster.local', 'svc2']);
  assert.deepEqual(cache.servicesByIp('::ffff:10.0.0.1'), ['svc1.ns.svc.cluster.local', 'svc2']);
  assert.deepEqual(cache.servicesByIp('2001:db8::5'), ['v6svc']);
  assert.deepEqual(cache.servicesByIp('10.9.9.9'), []);
  assert.equal(cache.servicesByIp('10.0.0.1'), cache.servicesByIp('10.0.0.1'), 'same array object while unchanged');
  assert.ok(Object.isFrozen(cache.servicesByIp('10.0.0.1')));
  assert.equal(cache.entitiesByIp('::ffff:10.0.0.1')[0].name, 'pod-a');
  assert.equal(cache.size, 2);
});

test('add, update, remove and replace keep the IP index right', () => {
  const cache = new EntityCache();
  cache.add({ ip_address: '10.0.0.1', uid: 'a', services: ['s1'] });
  cache.add({ ip_address: '10.0.0.1', uid: 'h', services: ['s2', 's1'] });
  assert.deepEqual(cache.servicesByIp('10.0.0.1'), ['s1', 's2'], 'entities sharing an IP merge their services');
  cache.add({ ip_address: '10.0.0.2', uid: 'a', services: ['s3'] });
  assert.deepEqual(cache.servicesByIp('10.0.0.1'), ['s2', 's1'], 'moved entity left its old IP');
  assert.deepEqual(cache.servicesByIp('10.0.0.2'), ['s3']);
  assert.equal(cache.remove('h'), true);
  assert.equal(cache.remove('h'), false);
  assert.deepEqual(cache.servicesByIp('10.0.0.1'), []);
  cache.replace([{ ip_address: '10.0.0.7', uid: 'z', services: ['s7'] }]);
  assert.deepEqual(cache.servicesByIp('10.0.0.2'), []);
  assert.deepEqual(cache.servicesByIp('10.0.0.7'), ['s7']);
  assert.deepEqual(cache.entities().map((e) => e.uid), ['z']);
});

test('the cache keeps its own copy of an entity', () => {
  const cache = new EntityCache();
  const services = ['s1'];
  cache.add({ ip_address: '10.0.0.1', uid: 'a', services });
  services.push('s2');
  assert.deepEqual(cache.servicesByIp('10.0.0.1'), ['s1']);
});

test('entities without uid or IP are refused', () => {
  const cache = new EntityCache();
  assert.throws(() => cache.add({ ip_address: '10.0.0.1', uid: '' }), /uid/);
  assert.throws(() => cache.add({ ip_address: '', uid: 'a' }), /ip_address/);
  assert.equal(cache.size, 0);
});
