import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FlowEndFailure, FlowEndReport, FlowEndSink } from './flow-end.js';
import { lazyFlowEnds } from './lazy-flow-ends.js';

const flow = (flowId: string): FlowEndReport => ({ controlPoint: 'ingress', flowId, statusCode: 200, durationMs: 5 });

function recorder(): FlowEndSink & { got: string[]; closed: boolean } {
  const r = { got: [] as string[], closed: false, report: (f: FlowEndReport) => { r.got.push(f.flowId); }, close: () => { r.closed = true; } };
  return r;
}

test('the sink is loaded at the first report, not before; reports made while it loads reach it, past the bound they are dropped', async () => {
  let loads = 0;
  let release: (() => void) | undefined;
  const sink = recorder();
  const failures: FlowEndFailure[] = [];
  const lazy = lazyFlowEnds(() => { loads++; return new Promise((resolve) => { release = () => resolve(sink); }); }, (r) => failures.push(r), 2);
  assert.equal(loads, 0, 'nothing loaded at start');
  lazy.report(flow('a'));
  lazy.report(flow('b'));
  lazy.report(flow('c'));
  assert.equal(loads, 1, 'one load for every waiting report');
  assert.deepEqual(failures, ['dropped'], 'the third waiting report is past the bound');
  release?.();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sink.got, ['a', 'b']);
  lazy.report(flow('d'));
  assert.deepEqual(sink.got, ['a', 'b', 'd'], 'once loaded, straight through');
  lazy.close();
  assert.equal(sink.closed, true);
});

test('a load that fails counts the waiting reports as errors and is tried again; closed before it loads, the sink is closed at once', async () => {
  let attempt = 0;
  const sink = recorder();
  const failures: FlowEndFailure[] = [];
  const lazy = lazyFlowEnds(() => (++attempt === 1 ? Promise.reject(new Error('no module')) : Promise.resolve(sink)), (r) => failures.push(r));
  lazy.report(flow('a'));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(failures, ['error']);
  lazy.report(flow('b'));
  await new Promise((r) => setImmediate(r));
  assert.equal(attempt, 2);
  assert.deepEqual(sink.got, ['b']);

  const late = recorder();
  let resolveLate: ((s: FlowEndSink) => void) | undefined;
  const closing = lazyFlowEnds(() => new Promise((resolve) => { resolveLate = resolve; }), (r) => failures.push(r));
  closing.report(flow('x'));
  closing.close();
  closing.report(flow('y'));
  resolveLate?.(late);
  await new Promise((r) => setImmediate(r));
  assert.equal(late.closed, true);
  assert.deepEqual(late.got, []);
  assert.deepEqual(failures, ['error', 'dropped', 'dropped'], 'y after close, x never sent');
});
