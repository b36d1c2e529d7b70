import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { predicateJob, registerProcessJobs } from './process-jobs.js';
import { eventLoopJob, monitorResolutionMs } from './event-loop-job.js';
import { StatusRegistry } from './status-registry.js';

const scheduler = { blocking_execution: false, worker_limit: 0 };
const service = { execution_period: '20ms', execution_timeout: '1s', initially_healthy: false };

test('liveness and readiness jobs land in the registry under their groups', async (t) => {
  const registry = new StatusRegistry();
  let listening = false;
  const jobs = registerProcessJobs({ liveness: { scheduler, service }, readiness: { scheduler, service } }, registry, {
    readiness: [predicateJob('server', () => listening, 'server not listening', 'server listening')],
  });
  t.after(() => jobs.shutdown());
  assert.equal(registry.get('liveness/service/event_loop')?.message, 'not yet run');
  assert.equal(registry.isHealthy('readiness'), false, 'initially_healthy false');
  jobs.start();
  const deadline = Date.now() + 2000;
  while (registry.get('readiness/service/server')?.message !== 'server not listening' || !registry.isHealthy('liveness')) {
    assert.ok(Date.now() < deadline, 'jobs ran');
    await sleep(5);
  }
  assert.match(registry.get('liveness/service/event_loop')?.message ?? '', /event loop delay max/);
  listening = true;
  while (!registry.isHealthy('readiness')) {
    assert.ok(Date.now() < deadline, 'readiness turned healthy');
    await sleep(5);
  }
  assert.equal(registry.get('readiness/service/server')?.message, 'server listening');
});

test('the event-loop job fails when the loop was blocked longer than its limit', async () => {
  // A limit well above what a busy machine's scheduling adds, a block well above the limit.
  const job = eventLoopJob({ maxDelayMs: 250 });
  try {
    // The monitor measures from its first tick on (25 ms here): let it tick a few times first, and
    // once more after the block, on a machine that may run this process late.
    await sleep(150);
    const end = Date.now() + 600;
    while (Date.now() < end) { /* block the event loop on purpose */ }
    await sleep(150);
    const outcome = await job.run(new AbortController().signal);
    assert.equal(outcome?.healthy, false);
    assert.match(outcome?.message ?? '', /event loop blocked for \d+ms \(limit 250ms\)/);
    const calm = await job.run(new AbortController().signal);
    assert.equal(calm?.healthy, true, 'the histogram resets between runs');
  } finally {
    await job.shutdown();
  }
});

test('bad job configuration is refused', () => {
  const registry = new StatusRegistry();
  assert.throws(() => registerProcessJobs({ liveness: { scheduler, service: { ...service, execution_period: 'often' } }, readiness: { scheduler, service } }, registry), /execution_period|invalid duration/);
});

test('the event-loop monitor ticks at a tenth of the limit, between 10 and 100 ms', () => {
  assert.equal(monitorResolutionMs(5000), 100);
  assert.equal(monitorResolutionMs(250), 25);
  assert.equal(monitorResolutionMs(50), 10);
});
