import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { createAdminServer } from './admin.js';
import { watchAgent, type WatchedAgent } from './agent-watch.js';
import type { ConnectionState } from './check/agent-connection.js';
import { createTapMetrics } from './metrics.js';

function fakeAgent(state: ConnectionState): WatchedAgent & { state: ConnectionState; dials: number } {
  const a = { state, dials: 0, connectivity: () => a.state, lastError: () => (a.state === 'ready' ? '' : 'connect ECONNREFUSED 127.0.0.1:1'), connect: () => { a.dials++; } };
  return a;
}

function logs(): { lines: { level: string; msg: string; meta?: Record<string, unknown> }[]; logger: { error: (m: string) => void; warn: (m: string, meta?: Record<string, unknown>) => void; info: (m: string, meta?: Record<string, unknown>) => void; debug: () => void } } {
  const lines: { level: string; msg: string; meta?: Record<string, unknown> }[] = [];
  return { lines, logger: { error: (msg) => lines.push({ level: 'error', msg }), warn: (msg, meta) => lines.push({ level: 'warn', msg, meta }), info: (msg, meta) => lines.push({ level: 'info', msg, meta }), debug: () => undefined } };
}

const gauge = async (registry: Registry): Promise<number> => {
  const m = (await registry.getSingleMetric('tap_agent_reachable')?.get())?.values[0]?.value;
  assert.equal(typeof m, 'number');
  return m as number;
};

test('an agent unreachable past the grace: logged once, gauge 0, not ready; back again: logged, gauge 1, ready', async (t) => {
  const agent = fakeAgent('backoff');
  const registry = new Registry();
  const { lines, logger } = logs();
  const watch = watchAgent({ agent, address: '127.0.0.1:1', graceMs: 100, failOpenSilently: false, logger, metrics: createTapMetrics(registry), everyMs: 10 });
  t.after(() => watch.shutdown());
  assert.equal(watch.notReady(), undefined, 'ready within the grace');
  assert.equal(await gauge(registry), 1);
  await sleep(250);
  assert.equal(watch.notReady(), 'the agent at 127.0.0.1:1 is unreachable: connect ECONNREFUSED 127.0.0.1:1');
  assert.equal(await gauge(registry), 0);
  const warned = lines.filter((l) => l.level === 'warn');
  assert.equal(warned.length, 1, 'said once');
  assert.match(warned[0]?.msg ?? '', /^agent unreachable: requests go through unchecked/);
  assert.equal(warned[0]?.meta?.agent, '127.0.0.1:1');
  agent.state = 'ready';
  await sleep(50);
  assert.equal(watch.notReady(), undefined);
  assert.equal(await gauge(registry), 1);
  assert.ok(lines.some((l) => l.msg.startsWith('agent reachable again')));
  // Lost again: the grace starts over from the loss.
  agent.state = 'connecting';
  await sleep(40);
  assert.equal(watch.notReady(), undefined, 'within the grace after the loss');
  await sleep(200);
  assert.notEqual(watch.notReady(), undefined);
});

test('an idle connection is dialled; --fail-open-silently stays ready but still logs and counts', async (t) => {
  const agent = fakeAgent('idle');
  const registry = new Registry();
  const { lines, logger } = logs();
  const watch = watchAgent({ agent, address: 'a:1', graceMs: 30, failOpenSilently: true, logger, metrics: createTapMetrics(registry), everyMs: 10 });
  t.after(() => watch.shutdown());
  await sleep(120);
  assert.ok(agent.dials > 0, 'dialled');
  assert.equal(watch.notReady(), undefined);
  assert.equal(await gauge(registry), 0);
  assert.equal(lines.filter((l) => l.level === 'warn').length, 1);
});

test('/readyz answers 503 with the reason, /healthz stays 200', async (t) => {
  let why: string | undefined = 'the agent at a:1 is unreachable';
  const server = createAdminServer(new Registry(), () => true, () => why);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const ready = await fetch(`${base}/readyz`);
  assert.equal(ready.status, 503);
  assert.deepEqual(await ready.json(), { status: 'NOT_SERVING', reason: 'the agent at a:1 is unreachable' });
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  why = undefined;
  assert.equal((await fetch(`${base}/readyz`)).status, 200);
});
