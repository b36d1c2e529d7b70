import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { k8s } from './k8s.js';
import { KubernetesPeerSource, peersOfSlice, type KubePeerRecord, type PeerSliceSkip } from './peers-source.js';
import type { InformerHandler } from './shared-informer.js';

const PORTS = [{ name: 'server', port: 8080 }, { name: 'dist-cache', port: 3320 }, { name: 'memberlist', port: 3322 }];

function slice(name: string, endpoints: unknown[], extra: Partial<k8s.V1EndpointSlice> = {}): k8s.V1EndpointSlice {
  return {
    metadata: { name, namespace: 'sluice', labels: { 'kubernetes.io/service-name': 'sluice-agent-peers' }, resourceVersion: String(Math.random()) },
    addressType: 'IPv4',
    endpoints: endpoints as k8s.V1Endpoint[],
    ports: PORTS,
    ...extra,
  };
}

const ep = (ip: string, conditions: Record<string, boolean> = { ready: true }): unknown => ({ addresses: [ip], conditions });

class FakeInformer {
  handler: InformerHandler<k8s.V1EndpointSlice> | undefined;
  started = 0;
  subscribe(h: InformerHandler<k8s.V1EndpointSlice>): () => void {
    this.handler = h;
    return () => {
      this.handler = undefined;
    };
  }
  start(): void {
    this.started++;
  }
}

class Sink {
  resets: Array<{ source: string; ids: string[] }> = [];
  last: readonly KubePeerRecord[] = [];
  reset(source: string, peers: readonly KubePeerRecord[]): void {
    this.resets.push({ source, ids: peers.map((p) => p.id) });
    this.last = peers;
  }
}

test('each ready endpoint but this pod is a peer at the slice ports named dist-cache and memberlist', () => {
  const peers = peersOfSlice(slice('a', [ep('10.0.0.1'), ep('10.0.0.2'), ep('10.0.0.3', { ready: false }), ep('10.0.0.4', { ready: true, terminating: true }), { addresses: ['10.0.0.5'] }]), 'default', '10.0.0.2');
  assert.deepEqual(peers, [
    { id: '10.0.0.1:3320', group: 'default', advertisementAddr: '10.0.0.1:3320', distCache: { bindAddr: '10.0.0.1:3320', memberlistAddr: '10.0.0.1:3322' } },
    { id: '10.0.0.5:3320', group: 'default', advertisementAddr: '10.0.0.5:3320', distCache: { bindAddr: '10.0.0.5:3320', memberlistAddr: '10.0.0.5:3322' } },
  ]);
});

test('IPv6 endpoints are bracketed', () => {
  const [p] = peersOfSlice(slice('a', [ep('fd00::1')], { addressType: 'IPv6' }), 'g');
  assert.equal(p?.distCache.memberlistAddr, '[fd00::1]:3322');
  assert.equal(p?.id, '[fd00::1]:3320');
});

test('bad inputs: no named ports, a bad port, FQDN slices, bad or missing addresses, a null endpoint', () => {
  const cases: Array<{ name: string; s: k8s.V1EndpointSlice; skips: PeerSliceSkip[] }> = [
    { name: 'no memberlist port', s: slice('a', [ep('10.0.0.1')], { ports: [{ name: 'dist-cache', port: 3320 }] }), skips: ['no_ports'] },
    { name: 'no ports at all', s: slice('a', [ep('10.0.0.1')], { ports: undefined }), skips: ['no_ports'] },
    { name: 'port out of range', s: slice('a', [ep('10.0.0.1')], { ports: [{ name: 'dist-cache', port: 70000 }, { name: 'memberlist', port: 3322 }] }), skips: ['no_ports'] },
    { name: 'FQDN', s: slice('a', [ep('agent.example')], { addressType: 'FQDN' }), skips: ['unsupported_address_type'] },
    { name: 'not an IP', s: slice('a', [ep('not-an-ip')]), skips: ['bad_address'] },
    { name: 'no addresses', s: slice('a', [{ addresses: [], conditions: { ready: true } }]), skips: ['bad_address'] },
    { name: 'null endpoint', s: slice('a', [null]), skips: ['bad_address'] },
    { name: 'endpoints not a list', s: slice('a', 'x' as unknown as unknown[]), skips: [] },
  ];
  for (const c of cases) {
    const skips: PeerSliceSkip[] = [];
    assert.deepEqual(peersOfSlice(c.s, 'g', undefined, (r) => skips.push(r)), [], c.name);
    assert.deepEqual(skips, c.skips, c.name);
  }
});

test('the source hands the sink its full list on every change, across slices, and drops slices gone at a relist', () => {
  const inf = new FakeInformer();
  const sink = new Sink();
  const skipped: string[] = [];
  const src = new KubernetesPeerSource({ informer: inf, group: 'default', selfIp: '10.0.0.9', onSkip: (r, s) => skipped.push(`${r} ${s}`) });
  src.start(sink);
  assert.equal(inf.started, 1);
  assert.equal(src.name, 'kubernetes');
  const h = inf.handler!;
  const a = slice('a', [ep('10.0.0.1'), ep('10.0.0.9')]);
  const b = slice('b', [ep('10.0.0.2'), ep('10.0.0.1')]);
  h.add?.(a);
  h.add?.(b);
  assert.deepEqual(sink.resets.at(-1), { source: 'kubernetes', ids: ['10.0.0.1:3320', '10.0.0.2:3320'] }, 'one peer per id, self skipped');
  h.update?.(slice('a', [ep('10.0.0.1', { ready: false })]), a);
  assert.deepEqual(sink.resets.at(-1)?.ids, ['10.0.0.2:3320', '10.0.0.1:3320']);
  h.update?.(slice('b', [ep('10.0.0.2')]), b);
  assert.deepEqual(sink.resets.at(-1)?.ids, ['10.0.0.2:3320']);
  h.add?.(slice('c', [ep('nope')]));
  assert.deepEqual(skipped, ['bad_address sluice/c']);
  h.synced?.([slice('a', [])]);
  assert.deepEqual(sink.resets.at(-1)?.ids, [], 'slice b gone at the relist');
  h.add?.(slice('b', [ep('10.0.0.3')]));
  h.delete?.(slice('b', []));
  assert.deepEqual(sink.resets.at(-1)?.ids, []);
  void src.shutdown();
  assert.equal(inf.handler, undefined, 'stop unsubscribes');
});
