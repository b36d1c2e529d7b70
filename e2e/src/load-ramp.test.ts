// A load ramp end to end: the Aperture-form load-ramping policy (libs/policies/test-fixtures/
// aperture-form/load-ramping.yaml: the blueprint's bool variables on `start` and `reset`) posted to
// the real controller with real etcd, enforced by two real agents as a sampler. Dynamic
// configuration posted to the controller starts, pauses and resets the ramp, and the share of real
// flows the agents accept follows it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { grpcClient, unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { ROOT, startAgent, startController, until, type SluiceProcess } from './support/processes.js';

const FIXTURE = join(ROOT, 'libs', 'policies', 'test-fixtures', 'aperture-form', 'load-ramping.yaml');
const NAME = 'aperture-form-load-ramping';
const CP = 'aperture-form-load-ramping';
const SAMPLER = 'root.12';

async function send(c: SluiceProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${c.base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const text = await r.text();
  return { status: r.status, body: text === '' ? {} : JSON.parse(text) as Record<string, unknown> };
}

async function signals(c: SluiceProcess): Promise<Record<string, number | null>> {
  const r = await send(c, 'GET', `/v1/policies/${NAME}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.signals ?? {}) as Record<string, number | null>;
}

async function accepted(check: GrpcClient, user: string): Promise<boolean> {
  const r = await unaryCall<{ decision_type: string }>(check, 'Check', { control_point: CP, labels: { user } });
  return r.decision_type === 'DECISION_TYPE_ACCEPTED';
}

let fresh = 0;
/** Flows in flight at once while measuring a share. */
const BATCH = 10;
/** The share of `n` flows of users never seen before that the agents accept (alternating between them). */
async function share(checks: readonly GrpcClient[], n: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => accepted(checks[(i + j) % checks.length], `user-${fresh++}`));
    ok += (await Promise.all(batch)).filter((a) => a).length;
  }
  return ok / n;
}

test('a load ramp driven by dynamic configuration: start raises the share of flows the agents accept through the steps, pause holds it, reset brings it back', async (t) => {
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const agents = await Promise.all([0, 1].map(() => startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpoints } })));
  const checks = agents.map((a) => grpcClient(t, 'flowControl', a.address));

  const resource = parse(readFileSync(FIXTURE, 'utf8')) as { spec: unknown; dynamicConfig: Record<string, unknown> };
  const posted = await send(controller, 'POST', `/v1/policies/${NAME}`, { policy: resource.spec });
  assert.equal(posted.status, 200, JSON.stringify(posted.body));
  const dyn = async (doc: Record<string, unknown>) => {
    const r = await send(controller, 'POST', `/v1/dynamic-configs/${NAME}`, { dynamic_config: doc });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  await dyn(resource.dynamicConfig);
  for (const a of agents) {
    await until(async () => {
      const body = await (await fetch(`${a.base}/v1/policies/enforced`)).json() as { components: { component_id: string }[] };
      return body.components.some((c) => c.component_id === SAMPLER);
    }, 20_000, 'the sampler enforced by each agent');
  }

  // Not started: the first step, 10%; the pass-through user of the dynamic config always passes.
  assert.deepEqual([(await signals(controller)).ACCEPT_PERCENTAGE, (await signals(controller)).AT_START], [10, 1]);
  await until(async () => (await share(checks, 100)) < 0.25, 20_000, 'about 10% accepted before the start');
  const atFirst = await share(checks, 400);
  t.diagnostic(`before the start: ${atFirst}`);
  assert.ok(atFirst > 0.03 && atFirst < 0.2, `about 10% accepted: ${atFirst}`);
  for (const c of checks) for (let i = 0; i < 5; i++) assert.equal(await accepted(c, 'qa'), true, 'pass-through user');
  await sleep(2000);
  assert.equal((await signals(controller)).ACCEPT_PERCENTAGE, 10, 'it stays at the start until started');

  // Started: it climbs through the first ramp (10 → 50 over 8 s); paused on the way to 100.
  await dyn({ ...resource.dynamicConfig, start: true });
  const climbed: number[] = [];
  await until(async () => {
    const p = (await signals(controller)).ACCEPT_PERCENTAGE;
    if (typeof p === 'number' && climbed.at(-1) !== p) climbed.push(p);
    return typeof p === 'number' && p > 50;
  }, 60_000, 'past the second step');
  await dyn({ ...resource.dynamicConfig, start: false });
  t.diagnostic(`accept percentage on the way: ${climbed.join(', ')}`);
  assert.ok(climbed.some((p) => p > 10 && p < 50), `values between the first two steps: ${climbed.join(', ')}`);
  assert.deepEqual(climbed, [...climbed].sort((a, b) => a - b), 'it only rises');
  let held = (await signals(controller)).ACCEPT_PERCENTAGE;
  await sleep(2000);
  const s = await signals(controller);
  assert.equal(s.ACCEPT_PERCENTAGE, held, 'paused: it holds');
  held = s.ACCEPT_PERCENTAGE;
  assert.ok(typeof held === 'number' && held > 50 && held < 100, `paused between the steps: ${held}`);
  assert.deepEqual([s.AT_START, s.AT_END], [0, 0]);
  let paused = 0;
  await until(async () => Math.abs((paused = await share(checks, 400)) - held! / 100) < 0.1, 20_000, `about ${held}% accepted while paused`);
  t.diagnostic(`paused at ${held}%: ${paused} accepted`);
  assert.ok(paused > atFirst + 0.3);

  // Started again: to the end, where every flow is accepted.
  await dyn({ ...resource.dynamicConfig, start: true });
  await until(async () => (await signals(controller)).AT_END === 1, 60_000, 'the end of the ramp');
  assert.equal((await signals(controller)).ACCEPT_PERCENTAGE, 100);
  await until(async () => (await share(checks, 100)) === 1, 20_000, 'every flow accepted at the end');
  assert.equal(await share(checks, 300), 1);

  // Reset through the dynamic config: back to the first step at once, and the agents follow.
  await dyn({ ...resource.dynamicConfig, start: true, reset: true });
  await until(async () => {
    const r = await signals(controller);
    return r.ACCEPT_PERCENTAGE === 10 && r.AT_START === 1 && r.AT_END === 0;
  }, 20_000, 'reset to the start');
  await until(async () => (await share(checks, 100)) < 0.25, 20_000, 'about 10% accepted after the reset');
  const afterReset = await share(checks, 400);
  t.diagnostic(`after the reset: ${afterReset}`);
  assert.ok(afterReset > 0.03 && afterReset < 0.2, `about 10% accepted after the reset: ${afterReset}`);
  await sleep(2000);
  assert.equal((await signals(controller)).ACCEPT_PERCENTAGE, 10, 'held at the start while reset is true');
  assert.equal(controller.child.exitCode, null);
  for (const a of agents) assert.equal(a.child.exitCode, null);
});
