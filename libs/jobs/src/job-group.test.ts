import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobGroup } from './job-group.js';
import { JobTimeoutError } from './run-with-timeout.js';
import type { JobConfig } from './config.js';
import type { JobResult } from './job.js';

const fast: JobConfig = { execution_period: '20ms', execution_timeout: '1s', initially_healthy: false };
const once: JobConfig = { execution_period: '0s', execution_timeout: '1s', initially_healthy: false };

async function waitFor(predicate: () => boolean, what: string, limitMs = 2000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

test('a periodic job runs repeatedly and reports healthy results', async (t) => {
  const seen: JobResult[] = [];
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 }, (r) => seen.push(r));
  t.after(() => group.shutdown());
  let runs = 0;
  group.register({ name: 'tick', run: () => { runs++; } }, fast);
  assert.equal(seen.length, 1, 'initial status is reported at registration');
  assert.equal(seen[0].healthy, false);
  assert.equal(seen[0].message, 'not yet run');
  group.start();
  await waitFor(() => runs >= 3, 'three runs');
  const result = group.results().get('tick');
  assert.ok(result);
  assert.equal(result.healthy, true);
  assert.equal(result.message, 'ok');
  assert.ok(result.runs >= 2);
  assert.equal(result.group, 'g');
});

test('initially_healthy is the status before the first run', () => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  group.register({ name: 'a', run: () => undefined }, { ...once, initially_healthy: true });
  group.register({ name: 'b', run: () => undefined }, once);
  assert.equal(group.results().get('a')?.healthy, true);
  assert.equal(group.results().get('b')?.healthy, false);
});

test('a throwing job turns unhealthy with the reason, and healthy again after a success', async (t) => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  t.after(() => group.shutdown());
  let fail = true;
  group.register({ name: 'flaky', run: () => { if (fail) throw new Error('database unreachable'); } }, once);
  group.start();
  await waitFor(() => group.results().get('flaky')?.runs === 1, 'first run');
  assert.equal(group.results().get('flaky')?.healthy, false);
  assert.equal(group.results().get('flaky')?.message, 'database unreachable');
  fail = false;
  const again = await group.trigger('flaky');
  assert.equal(again.healthy, true);
  assert.equal(again.runs, 2);
});

test('a job may report an explicit unhealthy outcome with details', async () => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  group.register({ name: 'x', run: async () => ({ healthy: false, message: 'queue too deep', details: { depth: 7 } }) }, once);
  const r = await group.trigger('x');
  assert.equal(r.healthy, false);
  assert.equal(r.message, 'queue too deep');
  assert.deepEqual(r.details, { depth: 7 });
});

test('a run longer than execution_timeout is aborted and fails with the timeout reason', async () => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  let reason: unknown;
  group.register({
    name: 'slow',
    run: (signal) => new Promise<void>((_resolve, reject) => {
      signal.addEventListener('abort', () => { reason = signal.reason; reject(signal.reason); });
    }),
  }, { execution_period: '0s', execution_timeout: '30ms', initially_healthy: true });
  const r = await group.trigger('slow');
  assert.equal(r.healthy, false);
  assert.equal(r.message, 'timeout after 30ms');
  assert.ok(reason instanceof JobTimeoutError);
});

test('a job that ignores its signal is abandoned at the timeout', async () => {
  const group = new JobGroup('g', { blocking_execution: true, worker_limit: 0 });
  group.register({ name: 'stuck', run: () => new Promise<void>(() => undefined) }, { execution_period: '0s', execution_timeout: '20ms', initially_healthy: true });
  group.register({ name: 'next', run: () => undefined }, once);
  assert.equal((await group.trigger('stuck')).message, 'timeout after 20ms');
  assert.equal((await group.trigger('next')).healthy, true, 'the serialized slot was released');
});

test('a non-periodic job runs once at start and again only on trigger', async (t) => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  t.after(() => group.shutdown());
  let runs = 0;
  group.register({ name: 'once', run: () => { runs++; } }, { ...once, execution_period: '-1s' });
  group.start();
  await waitFor(() => runs === 1, 'start run');
  await sleep(60);
  assert.equal(runs, 1);
  await group.trigger('once');
  assert.equal(runs, 2);
});

test('a job never overlaps with itself: trigger joins the in-flight run', async () => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  let runs = 0;
  group.register({ name: 'j', run: async () => { runs++; await sleep(30); } }, once);
  const [a, b] = await Promise.all([group.trigger('j'), group.trigger('j')]);
  assert.equal(runs, 1);
  assert.equal(a, b);
});

async function peakConcurrency(config: { blocking_execution: boolean; worker_limit: number }, jobs: number): Promise<number> {
  const group = new JobGroup('g', config);
  let active = 0;
  let peak = 0;
  for (let i = 0; i < jobs; i++) {
    group.register({
      name: `j${i}`,
      run: async () => { active++; peak = Math.max(peak, active); await sleep(25); active--; },
    }, once);
  }
  await Promise.all([...Array(jobs).keys()].map((i) => group.trigger(`j${i}`)));
  return peak;
}

test('blocking_execution serializes all runs of the group', async () => {
  assert.equal(await peakConcurrency({ blocking_execution: true, worker_limit: 3 }, 4), 1);
});

test('worker_limit bounds concurrent runs', async () => {
  assert.equal(await peakConcurrency({ blocking_execution: false, worker_limit: 2 }, 5), 2);
});

test('worker_limit 0 means no limit', async () => {
  assert.equal(await peakConcurrency({ blocking_execution: false, worker_limit: 0 }, 4), 4);
});

test('shutdown aborts running jobs, waits for them and stops the timers', async () => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  let aborted = false;
  let finished = false;
  let runs = 0;
  group.register({
    name: 'long',
    run: (signal) => new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => { aborted = true; setTimeout(() => { finished = true; resolve(); }, 10); });
    }),
  }, { execution_period: '10s', execution_timeout: '10s', initially_healthy: true });
  group.register({ name: 'tick', run: () => { runs++; } }, fast);
  group.start();
  await waitFor(() => runs >= 1, 'tick ran');
  await group.shutdown();
  assert.equal(aborted, true);
  assert.equal(finished, false, 'shutdown does not wait past the abort for a run that keeps going');
  const after = runs;
  await sleep(60);
  assert.equal(runs, after, 'no runs after shutdown');
  assert.equal(group.results().get('long')?.message, 'not yet run', 'a run cut by shutdown leaves the last result');
  assert.equal(group.started, false);
});

test('a job registered into a started group runs at once', async (t) => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  t.after(() => group.shutdown());
  group.start();
  let ran = false;
  group.register({ name: 'late', run: () => { ran = true; } }, once);
  await waitFor(() => ran, 'late job');
});

test('deregister stops a job and forgets it', async () => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  let runs = 0;
  group.register({ name: 'tick', run: () => { runs++; } }, fast);
  group.start();
  await waitFor(() => runs >= 1, 'one run');
  await group.deregister('tick');
  const after = runs;
  await sleep(60);
  assert.equal(runs, after);
  assert.equal(group.results().has('tick'), false);
  await group.shutdown();
});

test('a failing listener does not stop the others', async () => {
  const got: string[] = [];
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 }, () => { throw new Error('boom'); });
  group.onResult((r) => got.push(r.message));
  group.register({ name: 'x', run: () => undefined }, once);
  await group.trigger('x');
  assert.deepEqual(got, ['not yet run', 'ok']);
});

test('bad inputs are refused with the field at fault', async () => {
  const group = new JobGroup('g', { blocking_execution: false, worker_limit: 0 });
  assert.throws(() => group.register({ name: 'x', run: () => undefined }, { ...once, execution_period: 'soon' }), (e: Error & { field?: string }) => e.field === 'execution_period');
  assert.throws(() => group.register({ name: 'x', run: () => undefined }, { ...once, execution_timeout: '5' }), (e: Error & { field?: string }) => e.field === 'execution_timeout');
  assert.throws(() => group.register({ name: '', run: () => undefined }, once), /non-empty/);
  group.register({ name: 'x', run: () => undefined }, once);
  assert.throws(() => group.register({ name: 'x', run: () => undefined }, once), /already registered/);
  assert.throws(() => new JobGroup('g', { blocking_execution: false, worker_limit: -1 }), /worker_limit/);
  assert.throws(() => new JobGroup('g', { blocking_execution: false, worker_limit: 1.5 }), /worker_limit/);
  await assert.rejects(group.trigger('missing'), /no job "missing"/);
});

test('a period or timeout longer than Node timers allow means "rarely", not "at once"', async (t) => {
  const group = new JobGroup('long', { blocking_execution: false, worker_limit: 0 });
  t.after(() => group.shutdown());
  let runs = 0;
  group.register({ name: 'monthly', run: async () => { runs++; await sleep(5); } }, { execution_period: '720h', execution_timeout: '10000h', initially_healthy: false });
  group.start();
  await sleep(200);
  assert.equal(runs, 1, 'ran once at start, then waits for its (capped) period');
  assert.equal(group.results().get('monthly')?.healthy, true, 'the long timeout did not cut the run');
});
