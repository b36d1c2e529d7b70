import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MemberView } from './member.js';
import { PeerRegistry } from './peer-registry.js';
import type { PeerRecord } from './peers.js';

const peer = (id: string, port: number): PeerRecord => ({
  id, group: 'g', advertisementAddr: `10.0.0.${port}:8080`, distCache: { bindAddr: `10.0.0.${port}:3320`, memberlistAddr: `10.0.0.${port}:3322` },
});
const member = (id: string, state: MemberView['state']): MemberView => ({ id, state, incarnation: 1, gossipAddr: `g-${id}`, opsAddr: `o-${id}`, sinceMs: 0 });

test('a peer is kept while any source knows it; a reset finds what a source no longer reports', () => {
  const r = new PeerRegistry();
  r.upsert('etcd', peer('a', 1));
  r.upsert('kubernetes', peer('a', 1));
  r.upsert('etcd', peer('b', 2));
  assert.deepEqual(r.staleOf('etcd', new Set(['a'])), ['b']);
  assert.deepEqual(r.staleOf('kubernetes', new Set()), ['a']);
  r.remove('etcd', 'a');
  assert.deepEqual([...r.records()].map((p) => p.id), ['a', 'b'], 'a is still known to kubernetes');
  r.remove('kubernetes', 'a');
  r.remove('kubernetes', 'missing');
  assert.deepEqual([...r.records()].map((p) => p.id), ['b']);
});

test('the listing prefers what membership knows, adds members known from gossip only, sorted by id', () => {
  const r = new PeerRegistry();
  r.upsert('etcd', peer('c', 3));
  r.upsert('etcd', peer('a', 1));
  const members = new Map([['a', member('a', 'alive')], ['b', member('b', 'suspect')]]);
  const list = r.list({ group: 'g', member: (id) => members.get(id), view: () => [...members.values()], inRing: (id) => id === 'a' });
  assert.deepEqual(list.map((p) => [p.id, p.state, p.in_ring, p.sources.join(','), p.dist_cache.bind_addr]), [
    ['a', 'alive', true, 'etcd', 'o-a'],
    ['b', 'suspect', false, 'gossip', 'o-b'],
    ['c', 'unknown', false, 'etcd', '10.0.0.3:3320'],
  ]);
  assert.equal(list[1]?.advertisement_addr, '');
});
