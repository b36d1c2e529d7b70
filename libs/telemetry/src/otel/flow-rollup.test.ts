import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../batch/fake-clock.js';
import { createFlowRollup, rollUp, type RolledSeries } from './flow-rollup.js';

interface Flow { policy: string; component: string; ok: boolean; ms: number }

const expand = (f: Flow, emit: (m: string, l: Readonly<Record<string, string>>, v: number) => void) => {
  emit('flows_total', { policy_name: f.policy, component_id: f.component, decision: f.ok ? 'accepted' : 'rejected' }, 1);
  emit('flow_ms_total', { policy_name: f.policy }, f.ms);
};

test('rollUp sums the records of one metric and label set', () => {
  const out = rollUp<Flow>([
    { policy: 'p', component: '1', ok: true, ms: 2 },
    { policy: 'p', component: '1', ok: true, ms: 3 },
    { policy: 'p', component: '1', ok: false, ms: 4 },
    { policy: 'q', component: '1', ok: true, ms: 5 },
  ], expand);
  const find = (m: string, l: Record<string, string>) => out.find((s) => s.metric === m && JSON.stringify(s.labels) === JSON.stringify(l));
  assert.deepEqual(find('flows_total', { policy_name: 'p', component_id: '1', decision: 'accepted' })?.count, 2);
  assert.deepEqual(find('flows_total', { policy_name: 'p', component_id: '1', decision: 'rejected' })?.sum, 1);
  assert.deepEqual(find('flow_ms_total', { policy_name: 'p' }), { metric: 'flow_ms_total', labels: { policy_name: 'p' }, count: 3, sum: 9 });
  assert.equal(out.length, 5);
});

test('records wait for the pre-rollup timeout, series for the post-rollup one (fake clock)', () => {
  const clock = new FakeClock();
  const delivered: RolledSeries[][] = [];
  const r = createFlowRollup<Flow>({
    prerollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 10_000 },
    postrollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 1000 },
    expand, sink: (s) => delivered.push(s), timers: clock,
  });
  for (let i = 0; i < 100; i++) r.record({ policy: 'p', component: '1', ok: true, ms: 1 });
  clock.advance(9_999);
  assert.equal(delivered.length, 0);
  clock.advance(1);
  assert.equal(delivered.length, 0, 'rolled up, now in the post-rollup batch');
  clock.advance(1000);
  assert.equal(delivered.length, 1);
  assert.deepEqual(delivered[0].map((s) => [s.metric, s.count, s.sum]).sort(), [['flow_ms_total', 100, 100], ['flows_total', 100, 100]]);
});

test('batch sizes trigger and split: the pre-rollup size rolls up early, the post-rollup max splits series', () => {
  const clock = new FakeClock();
  const delivered: RolledSeries[][] = [];
  const r = createFlowRollup<Flow>({
    prerollup: { sendBatchSize: 3, sendBatchMaxSize: 0, timeoutMs: 10_000 },
    postrollup: { sendBatchSize: 4, sendBatchMaxSize: 3, timeoutMs: 1000 },
    expand, sink: (s) => delivered.push(s), timers: clock,
  });
  r.record({ policy: 'a', component: '1', ok: true, ms: 1 });
  r.record({ policy: 'b', component: '1', ok: true, ms: 1 });
  assert.equal(delivered.length, 0);
  // The third record sends the pre-rollup batch: 3 policies x 2 metrics = 6 series; the fourth
  // sends a post-rollup batch, split at 3; the last two wait for the post-rollup timeout.
  r.record({ policy: 'c', component: '1', ok: true, ms: 1 });
  assert.deepEqual(delivered.map((b) => b.length), [3, 1]);
  clock.advance(1000);
  assert.deepEqual(delivered.map((b) => b.length), [3, 1, 2]);
});

test('flush delivers everything at once', async () => {
  const delivered: RolledSeries[][] = [];
  const r = createFlowRollup<Flow>({
    prerollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 10_000 },
    postrollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 1000 },
    expand, sink: (s) => delivered.push(s), timers: new FakeClock(),
  });
  r.record({ policy: 'p', component: '1', ok: false, ms: 7 });
  await r.shutdown();
  assert.equal(delivered.flat().find((s) => s.metric === 'flow_ms_total')?.sum, 7);
  assert.throws(() => r.record({ policy: 'p', component: '1', ok: false, ms: 7 }), /shut down/);
});
