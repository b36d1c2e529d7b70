import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentCallError, type ConnectedAgent } from '@sluice/agentfunctions';
import { PolicyRejectedError } from '@sluice/controller';
import { InvalidArgumentError, NotFoundError, UnavailableError } from '@sluice/errors';
import { compilePolicy } from '@sluice/policies';
import { runWhatIf } from './whatif.js';
import { parseWhatIfRequest } from './whatif-request.js';

const T0 = 1_800_000_000_000;
const policy = {
  circuit: {
    components: [{
      flow_control: {
        rate_limiter: {
          in_ports: { bucket_capacity: { constant_signal: { value: 2 } }, fill_amount: { constant_signal: { value: 1 } } },
          parameters: { label_key: 'user', interval: '10s' },
          selectors: [{ control_point: 'ingress', agent_group: 'blue' }],
        },
      },
    }],
  },
};

function agent(name: string): ConnectedAgent {
  return { agent_group: 'blue', agent_name: name, address: '', version: '', functions: [], connected_at: '' };
}

/** Agents of one group answering previews from a table (an Error: the call fails). */
function hub(answers: Record<string, unknown>) {
  const calls: { name: string; path: string; timeoutMs: number }[] = [];
  return {
    calls,
    group: (g: string) => (g === 'blue' ? Object.keys(answers).map(agent) : []),
    call: (_g: string, name: string, _fn: string, args: Record<string, unknown>, timeoutMs: number) => {
      calls.push({ name, path: String(args.path), timeoutMs });
      const a = answers[name];
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
  };
}

const labels = (user: string, at: number) => ({ labels: { user }, arrival_unix_ms: T0 + at });

test('what-if: samples of every agent of the group merged by time into one bucket per value; an agent that fails is named', async () => {
  const h = hub({
    a1: { status: 200, body: { samples: [labels('bob', 0), labels('bob', 20), labels('amy', 30)] } },
    a2: { status: 200, body: { samples: [labels('bob', 10), labels('bob', 40)] } },
    a3: new AgentCallError(4, 'no answer within 1000 ms'),
  });
  const answer = await runWhatIf(parseWhatIfRequest({ policy, control_point: 'ingress', samples: 6, wait_ms: 1000 }), { hub: h, compile: compilePolicy });
  assert.equal(answer.agent_group, 'blue', 'the group the selectors name');
  assert.deepEqual(h.calls.map((c) => c.path), Array(3).fill('/v1/flowcontrol/preview/labels/ingress?samples=2&wait_ms=1000'), 'the samples spread over the agents');
  assert.ok(h.calls.every((c) => c.timeoutMs > 1000));
  const bob = answer.by_label.find((g) => g.value === 'bob');
  assert.deepEqual([bob?.flows, bob?.accepted, bob?.rejected], [4, 2, 2], 'one bucket of 2 for bob across both agents');
  assert.deepEqual(bob?.examples.rejected.map((e) => [e.agent, e.arrival_unix_ms - T0]), [['a1', 20], ['a2', 40]]);
  assert.equal(answer.samples.collected, 5);
  assert.equal(answer.samples.complete, false);
  assert.deepEqual(answer.samples.from.map((f) => [f.agent_name, f.samples, f.error !== undefined]), [['a1', 3, false], ['a2', 2, false], ['a3', 0, true]]);
  assert.match(answer.notes.join('\n'), /collected 5 of 6 samples/);
  assert.match(answer.notes.join('\n'), /agent a3 gave no samples: no answer/);
});

test('what-if: a bad policy, no component at the control point, no agent, no answer at all', async () => {
  const deps = { hub: hub({ a1: { status: 503, body: { message: 'preview disabled' } } }), compile: compilePolicy };
  const bad = { circuit: { components: [{ flow_control: { rate_limiter: { in_ports: {}, parameters: {}, selectors: [] } } }] } };
  await assert.rejects(runWhatIf(parseWhatIfRequest({ policy: bad, control_point: 'ingress' }), deps), (e: unknown) => e instanceof PolicyRejectedError && e.problems.length > 0 && e.problems.every((p) => p.path.startsWith('spec')));
  await assert.rejects(runWhatIf(parseWhatIfRequest({ policy, control_point: 'egress' }), deps), (e: unknown) => e instanceof InvalidArgumentError && e.field === 'control_point');
  await assert.rejects(runWhatIf(parseWhatIfRequest({ policy, control_point: 'ingress', agent_group: 'green' }), deps), (e: unknown) => e instanceof InvalidArgumentError && e.field === 'control_point');
  const green = JSON.parse(JSON.stringify(policy).replace('"blue"', '"green"')) as unknown;
  await assert.rejects(runWhatIf(parseWhatIfRequest({ policy: green, control_point: 'ingress' }), deps), (e: unknown) => e instanceof NotFoundError && /no agent of group green/.test(e.message));
  await assert.rejects(runWhatIf(parseWhatIfRequest({ policy, control_point: 'ingress' }), deps), (e: unknown) => e instanceof UnavailableError && /a1: HTTP 503/.test(e.message));
});
