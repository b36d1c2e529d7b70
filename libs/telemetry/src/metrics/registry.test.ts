import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter } from 'prom-client';
import { createMetricsRegistry } from './registry.js';
import { PedanticRegistry } from './pedantic.js';

const OFF = { enable_go_metrics: false, enable_process_collector: false, pedantic: false };

async function names(config: typeof OFF): Promise<string[]> {
  const registry = createMetricsRegistry(config);
  return (await registry.getMetricsAsJSON()).map((m) => m.name);
}

test('with both collectors off the registry starts empty', async () => {
  assert.deepEqual(await names(OFF), []);
});

test('enable_go_metrics registers only the Node runtime collectors (nodejs_*)', async () => {
  const got = await names({ ...OFF, enable_go_metrics: true });
  for (const expected of ['nodejs_eventloop_lag_seconds', 'nodejs_gc_duration_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_heap_space_size_used_bytes', 'nodejs_version_info']) {
    assert.ok(got.includes(expected), `${expected} in ${got.join(',')}`);
  }
  assert.deepEqual(got.filter((n) => !n.startsWith('nodejs_')), []);
});

test('enable_process_collector registers only the process collectors (process_*)', async () => {
  const got = await names({ ...OFF, enable_process_collector: true });
  for (const expected of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'process_start_time_seconds']) {
    assert.ok(got.includes(expected), `${expected} in ${got.join(',')}`);
  }
  assert.deepEqual(got.filter((n) => !n.startsWith('process_')), []);
});

test('both collectors together, and collected values are real', async () => {
  const registry = createMetricsRegistry({ ...OFF, enable_go_metrics: true, enable_process_collector: true });
  const text = await registry.metrics();
  assert.match(text, /^nodejs_heap_size_used_bytes \d+/m);
  const start = /^process_start_time_seconds (\d+)/m.exec(text);
  assert.ok(start !== null);
  assert.ok(Math.abs(Number(start[1]) - (Date.now() / 1000 - process.uptime())) < 5);
});

test('pedantic selects the pedantic registry, otherwise a plain one', () => {
  assert.ok(createMetricsRegistry({ ...OFF, pedantic: true }) instanceof PedanticRegistry);
  assert.ok(!(createMetricsRegistry(OFF) instanceof PedanticRegistry));
  const pedantic = createMetricsRegistry({ enable_go_metrics: true, enable_process_collector: true, pedantic: true });
  assert.doesNotThrow(() => new Counter({ name: 'app_requests_total', help: 'Requests.', registers: [pedantic] }));
});

test('a pedantic registry with the collectors passes its own consistency checks', async () => {
  const registry = createMetricsRegistry({ enable_go_metrics: true, enable_process_collector: true, pedantic: true }) as PedanticRegistry;
  await registry.checkConsistency();
  assert.match(await registry.metrics(), /nodejs_eventloop_lag_seconds/);
});
