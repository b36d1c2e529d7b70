import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InflightFlows } from './inflight-flows.js';

const flow = (cp = 'cp') => ({ controlPoint: cp, fluxMeters: ['m'], decisionType: 'DECISION_TYPE_ACCEPTED', startMs: 0 });

test('a flow ends once; unknown ids and other control points are counted', () => {
  const f = new InflightFlows();
  const id = f.add(flow());
  assert.equal(f.end(id, 'other').ok, false, 'another control point');
  assert.equal(f.end(id, 'cp').ok, true);
  assert.deepEqual(f.end(id), { ok: false, reason: 'unknown' });
  assert.deepEqual(f.end('nope'), { ok: false, reason: 'unknown' });
  assert.equal(f.stats.unknown, 3);
  assert.equal(f.stats.ended, 1);
});

test('flows expire after the TTL and the map stays bounded', () => {
  let now = 1000;
  const f = new InflightFlows({ ttlMs: 100, maxFlows: 3, now: () => now });
  const a = f.add(flow());
  now += 150;
  assert.deepEqual(f.end(a), { ok: false, reason: 'expired' });
  f.add(flow());
  now += 150;
  f.add(flow());
  assert.equal(f.size, 1, 'the expired one was swept on add');
  const ids = [f.add(flow()), f.add(flow()), f.add(flow())];
  assert.equal(f.size, 3);
  assert.equal(f.stats.evicted, 1);
  assert.equal(f.stats.expired, 2);
  for (const id of ids) assert.equal(f.end(id).ok, true);
});
