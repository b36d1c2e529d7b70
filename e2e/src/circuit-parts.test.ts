// Aperture's signal parts end to end: a policy posted to the real controller whose circuit (a pulse
// generator, a bool variable, and/inverter inside a nested circuit, a switcher; a signal generator
// through an sma) switches a rate limiter's capacity over time; real etcd, one real agent, flows
// checked with the agent's gRPC Check API, signals read from the controller's policy API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { grpcClient, unaryCall, type GrpcClient } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startController, until, type SluiceProcess } from './support/processes.js';

const CP = 'ingress-circuit-parts';
const port = (signal: string) => ({ signal_name: signal });
const constant = (value: number) => ({ constant_signal: { value } });

/** Open (capacity 1000) while the pulse is 1 and ENABLED is true; closed (capacity 0) otherwise. */
const POLICY = {
  circuit: {
    evaluation_interval: '250ms',
    components: [
      { pulse_generator: { true_for: '1500ms', false_for: '1500ms', out_ports: { output: port('PULSE') } } },
      { bool_variable: { constant_output: true, config_key: 'enabled', out_ports: { output: port('ENABLED') } } },
      {
        nested_circuit: {
          in_ports_map: { pulse: port('PULSE'), enabled: port('ENABLED') },
          out_ports_map: { closed: port('CLOSED') },
          components: [
            { nested_signal_ingress: { port_name: 'pulse', out_ports: { signal: port('P') } } },
            { nested_signal_ingress: { port_name: 'enabled', out_ports: { signal: port('E') } } },
            { and: { in_ports: { inputs: [port('P'), port('E')] }, out_ports: { output: port('OPEN') } } },
            { inverter: { in_ports: { input: port('OPEN') }, out_ports: { output: port('SHUT') } } },
            { nested_signal_egress: { port_name: 'closed', in_ports: { signal: port('SHUT') } } },
          ],
        },
      },
      { switcher: { in_ports: { on_signal: constant(0), off_signal: constant(1000), switch: port('CLOSED') }, out_ports: { output: port('CAP') } } },
      {
        flow_control: {
          rate_limiter: {
            in_ports: { bucket_capacity: port('CAP'), fill_amount: constant(0) },
            parameters: { label_key: 'user', interval: '3600s', continuous_fill: false },
            selectors: [{ control_point: CP }],
          },
        },
      },
      {
        signal_generator: {
          in_ports: { forward: constant(1) },
          out_ports: { output: port('RAMP') },
          parameters: { steps: [{ target_output: { value: 0 }, duration: '0s' }, { target_output: { value: 100 }, duration: '600s' }] },
        },
      },
      { sma: { in_ports: { input: port('RAMP') }, out_ports: { output: port('RAMP_AVG') }, parameters: { sma_window: '1s' } } },
    ],
  },
};

async function send(c: SluiceProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${c.base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const text = await r.text();
  return { status: r.status, body: text === '' ? {} : JSON.parse(text) as Record<string, unknown> };
}

async function signals(c: SluiceProcess): Promise<Record<string, number | null>> {
  const r = await send(c, 'GET', '/v1/policies/pulse');
  assert.equal(r.status, 200);
  return (r.body.signals ?? {}) as Record<string, number | null>;
}

let probe = 0;
/** Whether a fresh user's flow is accepted now (a fresh user has a full bucket of the current capacity). */
async function open(check: GrpcClient): Promise<boolean> {
  const r = await unaryCall<{ decision_type: string }>(check, 'Check', { control_point: CP, labels: { user: `probe-${probe++}` } });
  return r.decision_type === 'DECISION_TYPE_ACCEPTED';
}

test('a pulse through and/inverter in a nested circuit switches the enforced limit over time; a bool variable set through the API holds it shut', async (t) => {
  const etcd = await startEtcd(t);
  const endpoints = endpointsJson(etcd);
  const controller = await startController(t, { env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpoints, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpoints } });
  const check = grpcClient(t, 'flowControl', agent.address);
  const posted = await send(controller, 'POST', '/v1/policies/pulse', { policy: POLICY });
  assert.equal(posted.status, 200, JSON.stringify(posted.body));

  // The controller's signals follow the pulse: CAP takes both values, always the one the pulse and
  // the variable decide (read in one answer, so one tick).
  const caps = new Set<number | null>();
  const end = Date.now() + 20_000;
  while ((!caps.has(0) || !caps.has(1000)) && Date.now() < end) {
    const s = await signals(controller);
    assert.equal(s.ENABLED, 1);
    assert.equal(s['root.2/OPEN'], s.PULSE, 'inside the nested circuit: PULSE and true');
    assert.equal(s.CLOSED, s.PULSE === 1 ? 0 : 1);
    assert.equal(s.CAP, s.PULSE === 1 ? 1000 : 0);
    caps.add(s.CAP ?? null);
    await sleep(100);
  }
  assert.deepEqual([...caps].sort(), [0, 1000], 'the capacity switched both ways');

  // The agent enforces it: flows of fresh users are turned away while shut, then accepted again.
  await until(async () => !(await open(check)), 20_000, 'a closed phase enforced');
  await until(async () => open(check), 20_000, 'an open phase enforced after it');
  await until(async () => !(await open(check)), 20_000, 'closed again');

  // The signal generator ramps; the sma follows it over its window.
  const first = await signals(controller);
  await sleep(1500);
  const later = await signals(controller);
  assert.ok(typeof first.RAMP === 'number' && typeof later.RAMP === 'number' && later.RAMP > first.RAMP, `RAMP rises: ${first.RAMP} → ${later.RAMP}`);
  assert.ok(typeof later.RAMP_AVG === 'number' && later.RAMP_AVG < later.RAMP && later.RAMP_AVG > first.RAMP - 1, `RAMP_AVG trails RAMP: ${later.RAMP_AVG}`);

  // ENABLED set to false through the API: shut for good (over more than a whole pulse period).
  assert.equal((await send(controller, 'POST', '/v1/policies/pulse/variables/ENABLED', { value: 0 })).status, 200);
  await until(async () => (await signals(controller)).ENABLED === 0, 5000, 'ENABLED 0 in the circuit');
  await until(async () => !(await open(check)), 5000, 'shut enforced');
  const shutUntil = Date.now() + 4000;
  let accepted = 0;
  let checks = 0;
  while (Date.now() < shutUntil) {
    checks++;
    if (await open(check)) accepted++;
    const s = await signals(controller);
    assert.equal(s.CAP, 0, 'the capacity stays 0 whatever the pulse');
    await sleep(100);
  }
  t.diagnostic(`${checks} checks while shut, ${accepted} accepted`);
  assert.equal(accepted, 0);
  assert.equal(controller.child.exitCode, null);
  assert.equal(agent.child.exitCode, null);
});
