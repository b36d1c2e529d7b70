import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient, DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { JobGroup } from '@sluice/jobs';
import { Registry } from 'prom-client';
import { ControllerMetrics } from './metrics.js';
import { PromqlScheduler } from './promql-scheduler.js';
import { fakePrometheus, until } from './test-support.js';

test('a query slower than its interval fails as a timeout and never runs twice at once', async (t) => {
  const prom = await fakePrometheus(() => {
    return { body: { status: 'success', data: { resultType: 'scalar', result: [0, '1'] } }, delayMs: 400 };
  });
  t.after(() => prom.close());
  const client = createHttpClient({ ...DEFAULT_HTTP_CLIENT_CONFIG, timeout: '5s' });
  t.after(() => client.close());
  const registry = new Registry();
  const metrics = new ControllerMetrics(registry, () => new Map());
  const group = new JobGroup('promql_jobs_scheduler', { blocking_execution: false, worker_limit: 0 });
  const scheduler = new PromqlScheduler(group, { client, baseUrl: prom.url, metrics });
  group.start();
  t.after(() => group.shutdown());
  const handle = scheduler.add('slow', [{ id: 'root.0', query: 'x', evaluationIntervalMs: 100 }]);
  await until(() => /timed out/.test(handle.lastError() ?? ''), 3000, 'timeout reported');
  assert.equal(handle.values.get('root.0'), undefined, 'the signal is invalid');
  await new Promise((r) => setTimeout(r, 600));
  const failures = (await registry.getSingleMetric('promql_job_failures_total')!.get()).values;
  assert.ok(failures.some((v) => v.labels.reason === 'timeout' && v.value >= 2), JSON.stringify(failures));
  await handle.shutdown();
  assert.equal(prom.mostOpen(), 1, 'a timed-out query is abandoned before the next starts');
  assert.equal(group.results().size, 0, 'its jobs are gone after stop');
});

test('a query answers its value; an HTTP error without JSON makes it invalid', async (t) => {
  let mode: 'ok' | 'down' = 'ok';
  const prom = await fakePrometheus(() => mode === 'ok'
    ? { body: { status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [0, '3.5'] }] } } }
    : { status: 503, body: 'unavailable' });
  t.after(() => prom.close());
  const client = createHttpClient(DEFAULT_HTTP_CLIENT_CONFIG);
  t.after(() => client.close());
  const metrics = new ControllerMetrics(new Registry(), () => new Map());
  const group = new JobGroup('promql_jobs_scheduler', { blocking_execution: false, worker_limit: 0 });
  const scheduler = new PromqlScheduler(group, { client, baseUrl: prom.url, metrics });
  group.start();
  t.after(() => group.shutdown());
  const handle = scheduler.add('p', [{ id: 'q', query: 'up', evaluationIntervalMs: 50 }]);
  t.after(() => handle.shutdown());
  await until(() => handle.values.get('q') === 3.5, 2000, 'value');
  mode = 'down';
  await until(() => handle.values.get('q') === undefined && handle.lastError() !== undefined, 2000, 'invalid');
});
