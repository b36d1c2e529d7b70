import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { StatusRegistry } from '@sluice/status';
import { createWatchdog } from './watchdog.js';
import type { WatchdogConfig, WatchdogPolicyType } from './config.js';
import type { MemoryUsage } from './usage.js';
import { silentLogger } from '@sluice/telemetry/logger';

const disabled: WatchdogPolicyType = { adaptive_policy: { enabled: false, factor: 0.5 }, watermarks_policy: { enabled: false, watermarks: [0.5] } };
const manual = { execution_period: '0s', execution_timeout: '1s', initially_healthy: true };

function config(over: Partial<WatchdogConfig>): WatchdogConfig {
  return { cgroup: disabled, system: disabled, heap: { ...disabled, limit: 0, min_gogc: 25 }, job: manual, ...over };
}

/** A usage source fed from a script of values; after a GC it returns what `afterGc` says. */
function scripted(limit: number, values: number[]) {
  let i = 0;
  return { read: (): MemoryUsage => ({ used: values[Math.min(i++, values.length - 1)], limit, source: 'test' }) };
}

async function metric(registry: Registry, name: string, policy: string): Promise<number | undefined> {
  const m = await registry.getSingleMetric(name)?.get();
  return m?.values.find((v) => v.labels.policy === policy)?.value;
}

test('watermarks: fires at each next watermark, disarms after the last and turns liveness unhealthy', async () => {
  const status = new StatusRegistry();
  const registry = new Registry();
  const warnings: string[] = [];
  let gcs = 0;
  // reads: run1 100 | run2 600, after gc 600 | run3 700 | run4 950, after gc 950
  const source = scripted(1000, [100, 600, 600, 700, 950, 950]);
  const wd = createWatchdog(config({ system: { ...disabled, watermarks_policy: { enabled: true, watermarks: [0.5, 0.9] } } }), {
    status, registry, sources: { system: source.read }, gc: () => { gcs++; },
    logger: { ...silentLogger, warn: (m) => { warnings.push(m); } },
  });
  assert.deepEqual(wd.policies, ['system']);
  await wd.check('system');
  assert.equal(gcs, 0);
  assert.match(status.get('liveness/watchdog/system')?.message ?? '', /^system \(watermarks, test\): used 0\.0 MiB of 0\.0 MiB \(10\.0%\), next threshold/);
  assert.equal(await metric(registry, 'watchdog_memory_threshold_bytes', 'system'), 500);
  await wd.check('system');
  assert.equal(gcs, 1);
  assert.equal(await metric(registry, 'watchdog_memory_threshold_bytes', 'system'), 900);
  assert.equal(status.get('liveness/watchdog/system')?.healthy, true);
  await wd.check('system');
  assert.equal(gcs, 1, 'no crossing between watermarks');
  await wd.check('system');
  assert.equal(gcs, 2);
  assert.equal(await metric(registry, 'watchdog_threshold_crossings_total', 'system'), 2);
  assert.equal(await metric(registry, 'watchdog_memory_threshold_bytes', 'system'), Infinity);
  assert.equal(await metric(registry, 'watchdog_memory_usage_bytes', 'system'), 950);
  const s = status.get('liveness/watchdog/system');
  assert.equal(s?.healthy, false);
  assert.match(s?.message ?? '', /disarmed; past the last watermark/);
  assert.equal(status.isHealthy('liveness'), false);
  assert.ok(warnings.some((w) => /threshold passed/.test(w)));
  assert.ok(warnings.some((w) => /disarmed/.test(w)));
  await wd.shutdown();
});

test('watermarks re-arm when usage falls back below the last one', async () => {
  const status = new StatusRegistry();
  const source = scripted(1000, [995, 300]);
  const wd = createWatchdog(config({ cgroup: { ...disabled, watermarks_policy: { enabled: true, watermarks: [0.5, 0.99] } } }), {
    status, registry: new Registry(), sources: { cgroup: source.read }, gc: () => undefined,
  });
  await wd.check('cgroup');
  assert.equal(status.get('liveness/watchdog/cgroup')?.healthy, false);
  await wd.check('cgroup');
  assert.equal(status.get('liveness/watchdog/cgroup')?.healthy, true);
  assert.match(status.get('liveness/watchdog/cgroup')?.message ?? '', /next threshold/);
});

test('adaptive: next threshold from usage after the forced collection', async () => {
  const status = new StatusRegistry();
  const registry = new Registry();
  let gcs = 0;
  const source = scripted(1000, [200, 650, 300]);
  const wd = createWatchdog(config({ system: { ...disabled, adaptive_policy: { enabled: true, factor: 0.5 } } }), {
    status, registry, sources: { system: source.read }, gc: () => { gcs++; },
  });
  await wd.check('system');
  assert.equal(await metric(registry, 'watchdog_memory_threshold_bytes', 'system'), 600);
  await wd.check('system');
  assert.equal(gcs, 1);
  assert.equal(await metric(registry, 'watchdog_memory_threshold_bytes', 'system'), 650);
  assert.equal(await metric(registry, 'watchdog_memory_usage_bytes', 'system'), 300);
});

test('heap: min_gogc floors the adaptive threshold', async () => {
  const registry = new Registry();
  const wd = createWatchdog(config({ heap: { ...disabled, adaptive_policy: { enabled: true, factor: 0.1 }, limit: 1000, min_gogc: 25 } }), {
    status: new StatusRegistry(), registry, sources: { heap: () => ({ used: 500, limit: 1000, source: 'test' }) }, gc: () => undefined,
  });
  await wd.check('heap');
  assert.equal(await metric(registry, 'watchdog_memory_threshold_bytes', 'heap'), 625);
});

test('a source with no limit or no data leaves the policy inactive and healthy', async () => {
  const status = new StatusRegistry();
  const on = { ...disabled, watermarks_policy: { enabled: true, watermarks: [0.5] } };
  const wd = createWatchdog(config({ cgroup: on, system: on }), {
    status, registry: new Registry(), gc: () => { throw new Error('must not collect'); },
    sources: { cgroup: () => ({ used: 10, limit: Infinity, source: 'cgroup v1' }), system: () => undefined },
  });
  await wd.check('cgroup');
  await wd.check('system');
  assert.match(status.get('liveness/watchdog/cgroup')?.message ?? '', /inactive, no memory limit/);
  assert.match(status.get('liveness/watchdog/system')?.message ?? '', /inactive/);
  assert.equal(status.isHealthy('liveness/watchdog'), true);
});

test('a failing source makes the policy unhealthy with the reason', async () => {
  const status = new StatusRegistry();
  const wd = createWatchdog(config({ system: { ...disabled, adaptive_policy: { enabled: true, factor: 0.5 } } }), {
    status, registry: new Registry(), sources: { system: () => { throw new Error('EACCES reading meminfo'); } },
  });
  await wd.check('system');
  assert.equal(status.get('liveness/watchdog/system')?.healthy, false);
  assert.equal(status.get('liveness/watchdog/system')?.message, 'EACCES reading meminfo');
});

test('the real sources run on the job period and report into the registry', async (t) => {
  const status = new StatusRegistry();
  const on = { ...disabled, watermarks_policy: { enabled: true, watermarks: [0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99] } };
  const wd = createWatchdog(config({ heap: { ...on, limit: 256 * 1024 * 1024, min_gogc: 25 }, cgroup: on, system: on, job: { execution_period: '20ms', execution_timeout: '1s', initially_healthy: false } }), {
    status, registry: new Registry(),
  });
  t.after(() => wd.shutdown());
  wd.start();
  const deadline = Date.now() + 3000;
  while (wd.group.results().get('heap')?.runs !== 2) {
    assert.ok(Date.now() < deadline, 'two heap runs');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.match(status.get('liveness/watchdog/heap')?.message ?? '', /^heap \(watermarks, v8 heap\): used [\d.]+ MiB of 256\.0 MiB/);
  assert.match(status.get('liveness/watchdog/system')?.message ?? '', /^system \(watermarks, \/proc\/meminfo\)/);
  assert.ok(status.get('liveness/watchdog/cgroup'));
});

test('no policy enabled means no job', () => {
  const wd = createWatchdog(config({}), { status: new StatusRegistry(), registry: new Registry() });
  assert.deepEqual(wd.policies, []);
  assert.equal(wd.group.results().size, 0);
});
