import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../batch/fake-clock.js';
import { createFlowRollup, rollUp, type RolledSeries, type SeriesCell } from './flow-rollup.js';

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

test('records are rolled up as they come: the pending batch holds one cell per series, interned once', () => {
  const clock = new FakeClock();
  const delivered: RolledSeries[][] = [];
  let interned = 0;
  let cell: SeriesCell | undefined;
  const r = createFlowRollup<Flow>({
    prerollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 10_000 },
    postrollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 0 },
    expand: (f, _emit, counter) => {
      if (cell === undefined) { interned++; cell = counter.series('flow_ms_total', { policy_name: f.policy }); }
      counter.add(cell, f.ms);
    },
    sink: (s) => delivered.push(s), timers: clock,
  });
  const flow = { policy: 'p', component: '1', ok: true, ms: 3 };
  for (let i = 0; i < 1000; i++) r.record(flow);
  assert.equal(r.pending, 1000);
  assert.equal(interned, 1);
  assert.equal(cell?.count, 1000, 'counted as recorded, before the batch is sent');
  clock.advance(10_000);
  assert.equal(r.pending, 0);
  assert.deepEqual(delivered, [[{ metric: 'flow_ms_total', labels: { policy_name: 'p' }, count: 1000, sum: 3000 }]]);
  r.record(flow);
  clock.advance(10_000);
  assert.deepEqual(delivered[1], [{ metric: 'flow_ms_total', labels: { policy_name: 'p' }, count: 1, sum: 3 }], 'the next batch starts from zero');
});

test('pre-rollup: send_batch_max_size splits the batch where it reaches that many records; timeout 0 sends each record', () => {
  const clock = new FakeClock();
  const delivered: RolledSeries[][] = [];
  const r = createFlowRollup<Flow>({
    prerollup: { sendBatchSize: 0, sendBatchMaxSize: 2, timeoutMs: 10_000 },
    postrollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 0 },
    expand, sink: (s) => delivered.push(s), timers: clock,
  });
  for (let i = 0; i < 5; i++) r.record({ policy: 'p', component: '1', ok: true, ms: 1 });
  // Records 1-2 and 3-4 were two batches (each 2 series, sent one by one); record 5 waits for the timeout.
  assert.deepEqual(delivered.flat().map((s) => s.count), [2, 2, 2, 2]);
  assert.equal(r.pending, 1);
  assert.equal(clock.pendingTimers, 1);
  clock.advance(10_000);
  assert.deepEqual(delivered.flat().map((s) => s.count), [2, 2, 2, 2, 1, 1]);
  const now: RolledSeries[][] = [];
  const each = createFlowRollup<Flow>({
    prerollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 0 },
    postrollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 0 },
    expand, sink: (s) => now.push(s), timers: clock,
  });
  each.record({ policy: 'p', component: '1', ok: true, ms: 1 });
  assert.equal(now.flat().length, 2, 'its two series, sent at once');
  assert.equal(clock.pendingTimers, 0);
});

test('bad pre-rollup settings are refused', () => {
  const base = { postrollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: 0 }, expand, sink: () => undefined };
  assert.throws(() => createFlowRollup<Flow>({ ...base, prerollup: { sendBatchSize: -1, sendBatchMaxSize: 0, timeoutMs: 0 } }), /sendBatchSize/);
  assert.throws(() => createFlowRollup<Flow>({ ...base, prerollup: { sendBatchSize: 0, sendBatchMaxSize: 1.5, timeoutMs: 0 } }), /sendBatchMaxSize/);
  assert.throws(() => createFlowRollup<Flow>({ ...base, prerollup: { sendBatchSize: 0, sendBatchMaxSize: 0, timeoutMs: Infinity } }), /timeoutMs/);
});

test('a sink that throws loses its batch and is reported; later batches go on', () => {
  const clock = new FakeClock();
  const errors: unknown[] = [];
  let calls = 0;
  const r = createFlowRollup<Flow>({
    prerollup: { sendBatchSize: 1, sendBatchMaxSize: 0, timeoutMs: 10_000 },
    postrollup: { sendBatchSize: 2, sendBatchMaxSize: 0, timeoutMs: 1000 },
    expand, timers: clock, onError: (e) => errors.push(e),
    sink: () => { calls++; if (calls === 1) throw new Error('sink down'); },
  });
  r.record({ policy: 'p', component: '1', ok: true, ms: 1 });
  r.record({ policy: 'p', component: '1', ok: true, ms: 1 });
  assert.equal(calls, 2);
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /sink down/);
});
