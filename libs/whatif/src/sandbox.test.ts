import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy } from '@sluice/policies';
import { flowsOfPreview } from './flows.js';
import { summarize } from './report.js';
import { circuitDecisions, PolicySandbox } from './sandbox.js';

type Obj = Record<string, unknown>;
const T0 = 1_800_000_000_000;
const target = { controlPoint: 'ingress', agentGroup: 'default', service: 'any' };

function rateLimiter(capacity: number, fill: number, params: Obj = {}, selector: Obj = {}): Obj {
  return {
    flow_control: {
      rate_limiter: {
        in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: fill } } },
        parameters: { label_key: 'user', interval: '1s', ...params },
        selectors: [{ control_point: 'ingress', ...selector }],
      },
    },
  };
}

async function replay(spec: Obj, flows: { at: number; labels: Record<string, string> }[]) {
  const compiled = compilePolicy('p', spec);
  const sandbox = new PolicySandbox(compiled, target, circuitDecisions(compiled, T0), T0);
  try {
    const outcomes = await sandbox.replay(flows.map((f) => ({ arrivalMs: T0 + f.at, labels: f.labels })));
    return { outcomes, components: sandbox.components };
  } finally {
    await sandbox.shutdown();
  }
}

test('rate limiter: one local bucket per label value, refilled over the samples\' own timing, in arrival order', async () => {
  const flows: { at: number; labels: Record<string, string> }[] = [
    { at: 200, labels: { user: 'a' } }, // given out of order: replayed by arrival
    { at: 0, labels: { user: 'a' } },
    { at: 100, labels: { user: 'a' } },
    { at: 150, labels: { user: 'b' } },
    { at: 1100, labels: { user: 'a' } }, // a second later: one token back
    { at: 1150, labels: { user: 'a' } },
    { at: 1200, labels: { other: 'x' } }, // no label: not limited
  ];
  const { outcomes, components } = await replay({ circuit: { components: [rateLimiter(2, 1)] } }, flows);
  assert.deepEqual(outcomes.map((o) => [o.arrivalMs - T0, o.labels.user ?? '-', o.accepted]), [
    [0, 'a', true], [100, 'a', true], [150, 'b', true], [200, 'a', false], [1100, 'a', true], [1150, 'a', false], [1200, '-', true],
  ]);
  const rejected = outcomes.find((o) => !o.accepted);
  assert.equal(rejected?.rejectReason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(rejected?.rejectedBy, 'rate_limiter root.0');
  assert.deepEqual(components.map((c) => [c.component_id, c.kind, c.decision?.kind]), [['root.0', 'rate_limiter', 'rate_limiter']]);
  const report = summarize(outcomes, 'user');
  const a = report.by_label.find((g) => g.value === 'a');
  assert.deepEqual([a?.flows, a?.accepted, a?.rejected], [5, 3, 2]);
  assert.deepEqual(a?.rejected_by, { 'REJECT_REASON_RATE_LIMITED by rate_limiter root.0': 2 });
  assert.equal(a?.examples.rejected.length, 2);
  assert.equal(report.by_label.find((g) => g.value === '(no value)')?.accepted, 1);
  assert.equal(report.timeline.series.find((s) => s.value === 'a')?.rejected.reduce((x, y) => x + y), 2);
});

test('a steady rate over the bucket\'s fill is limited to the fill after the burst', async () => {
  // 20 flows a second for 10 s against capacity 20, 10 a second: 20 + 10 x 10 accepted, give or take the last refill.
  const flows = Array.from({ length: 200 }, (_, i) => ({ at: i * 50, labels: { user: 'bob' } }));
  const { outcomes } = await replay({ circuit: { components: [rateLimiter(20, 10)] } }, flows);
  const accepted = outcomes.filter((o) => o.accepted).length;
  assert.ok(accepted >= 115 && accepted <= 121, `accepted ${accepted}`);
});

test('classifier labels from the HTTP requests decide what the limiter sees; a label matcher narrows the limiter', async () => {
  const spec = {
    resources: { flow_control: { classifiers: [{ selectors: [{ control_point: 'ingress' }], rules: { tier: { extractor: { from: 'request.http.headers.x-tier' } } } }] } },
    circuit: { components: [rateLimiter(1, 1, { label_key: 'tier' }, { label_matcher: { match_labels: { tier: 'free' } } })] },
  };
  const sample = (at: number, tier: string) => ({
    attributes: { request: { http: { method: 'GET', path: '/x', host: 'shop', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: { 'x-tier': tier }, body: '' } } },
    arrival_unix_ms: T0 + at,
  });
  const flows = flowsOfPreview({ samples: [sample(0, 'free'), sample(10, 'free'), sample(20, 'gold'), sample(30, 'gold')] }, 'ingress', 'agent-1');
  assert.equal(flows[0]?.labels['http.request.header.x_tier'], 'free', 'labelled as the agent labels HTTP requests');
  const compiled = compilePolicy('p', spec);
  const sandbox = new PolicySandbox(compiled, target, circuitDecisions(compiled, T0));
  const outcomes = await sandbox.replay(flows);
  assert.deepEqual(outcomes.map((o) => [o.labels.tier, o.accepted, o.agent]), [['free', true, 'agent-1'], ['free', false, 'agent-1'], ['gold', true, 'agent-1'], ['gold', true, 'agent-1']]);
});

test('sampler: the circuit\'s accept percentage, sticky per label value, pass-through values let through', async () => {
  const spec = {
    circuit: {
      components: [{
        flow_control: {
          sampler: {
            in_ports: { accept_percentage: { constant_signal: { value: 0 } } },
            parameters: { label_key: 'user', selectors: [{ control_point: 'ingress' }] },
            pass_through_label_values: ['ops'],
          },
        },
      }],
    },
  };
  const { outcomes } = await replay(spec, [{ at: 0, labels: { user: 'a' } }, { at: 1, labels: { user: 'ops' } }]);
  assert.deepEqual(outcomes.map((o) => [o.labels.user, o.accepted, o.rejectedBy ?? '']), [['a', false, 'sampler root.0'], ['ops', true, '']]);
});

function loadScheduler(loadMultiplier: Obj): Obj {
  return {
    flow_control: {
      load_scheduler: {
        in_ports: { load_multiplier: loadMultiplier },
        parameters: {
          selectors: [{ control_point: 'ingress' }],
          scheduler: { workloads: [{ name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 200 } }] },
        },
      },
    },
  };
}

test('load scheduler without a known load multiplier: the workload each flow matches and its priority (matching only, said so)', async () => {
  const promql = { query: { promql: { query_string: 'sum(rate(x[1m]))', evaluation_interval: '1s', out_ports: { output: { signal_name: 'LM' } } } } };
  const spec = { circuit: { components: [rateLimiter(1, 1, { label_key: 'tier' }), promql, loadScheduler({ signal_name: 'LM' })] } };
  const flows = [{ at: 0, labels: { tier: 'gold' } }, { at: 1, labels: { tier: 'free' } }, { at: 2, labels: { tier: 'gold' } }];
  const { outcomes, components } = await replay(spec, flows);
  assert.deepEqual(outcomes.map((o) => [o.accepted, o.workloads.map((w) => `${w.component_id}:${w.workload}:${w.priority ?? ''}`)]), [
    [true, ['root.2:gold:200']], [true, ['root.2:default:1']], [false, ['root.2:gold:200']],
  ], 'a flow the rate limiter turns away still says its workload');
  const scheduler = components.find((c) => c.kind === 'load_scheduler');
  assert.equal(scheduler?.decision, null);
  assert.match(scheduler?.note ?? '', /matching only/);
  const report = summarize(outcomes, null);
  assert.deepEqual(report.by_workload.map((w) => [w.workload, w.flows, w.rejected]), [['gold', 2, 1], ['default', 1, 0]]);
});

test('load scheduler with the circuit\'s load multiplier: admission replayed on the sandbox clock, higher priority first', async () => {
  // 100 flows a second for 5 s, half gold; a multiplier of 0.5 admits about half the tokens.
  const flows = Array.from({ length: 500 }, (_, i) => ({ at: i * 10, labels: { tier: i % 2 === 0 ? 'gold' : 'free' } }));
  const { outcomes, components } = await replay({ circuit: { components: [loadScheduler({ constant_signal: { value: 0.5 } })] } }, flows);
  const rejected = outcomes.filter((o) => !o.accepted);
  assert.ok(rejected.length > 150 && rejected.length < 350, `rejected ${rejected.length} of 500`);
  assert.ok(rejected.every((o) => o.rejectReason === 'REJECT_REASON_NO_TOKENS' && o.rejectedBy === 'load_scheduler root.0'));
  const report = summarize(outcomes, null);
  const gold = report.by_workload.find((w) => w.workload === 'gold');
  const other = report.by_workload.find((w) => w.workload === 'default');
  assert.ok(gold !== undefined && other !== undefined);
  assert.ok(gold.rejected < other.rejected, `gold ${gold.rejected} rejected, default ${other.rejected}`);
  assert.match(components[0]?.note ?? '', /admission replayed with the circuit's load multiplier 0.5/);
});

test('a limiter whose inputs need PromQL has no decision here: it lets flows through, and says so', async () => {
  const spec = {
    circuit: {
      components: [
        { query: { promql: { query_string: 'sum(rate(x[1m]))', evaluation_interval: '1s', out_ports: { output: { signal_name: 'CAP' } } } } },
        { flow_control: { rate_limiter: { in_ports: { bucket_capacity: { signal_name: 'CAP' }, fill_amount: { constant_signal: { value: 1 } } }, parameters: { interval: '1s' }, selectors: [{ control_point: 'ingress' }] } } },
      ],
    },
  };
  const { outcomes, components } = await replay(spec, [{ at: 0, labels: {} }, { at: 1, labels: {} }, { at: 2, labels: {} }]);
  assert.ok(outcomes.every((o) => o.accepted));
  assert.equal(components[0]?.decision, null);
  assert.match(components[0]?.note ?? '', /PromQL/);
});

test('components of another control point or agent group are not in the sandbox', async () => {
  const spec = { circuit: { components: [rateLimiter(1, 1, {}, { control_point: 'egress' }), rateLimiter(1, 1, {}, { agent_group: 'canary' })] } };
  const { outcomes, components } = await replay(spec, [{ at: 0, labels: { user: 'a' } }, { at: 1, labels: { user: 'a' } }]);
  assert.deepEqual(components, []);
  assert.ok(outcomes.every((o) => o.accepted));
});

test('the report: examples bounded per outcome, the timeline\'s buckets cover the samples', () => {
  const outcomes = Array.from({ length: 40 }, (_, i) => ({ arrivalMs: T0 + i * 100, labels: { user: i % 2 === 0 ? 'a' : 'b' }, accepted: i < 20, rejectReason: i < 20 ? 'REJECT_REASON_NONE' : 'REJECT_REASON_RATE_LIMITED', workloads: [] }));
  const r = summarize(outcomes, 'user');
  assert.equal(r.flows, 40);
  assert.equal(r.rejected, 20);
  for (const g of r.by_label) {
    assert.equal(g.examples.accepted.length, 3);
    assert.equal(g.examples.rejected.length, 3);
    assert.equal(g.rejected_fraction, 0.5);
  }
  assert.equal(r.timeline.start_unix_ms, T0);
  const a = r.timeline.series.find((s) => s.value === 'a');
  assert.equal(a?.flows.reduce((x, y) => x + y), 20);
  assert.deepEqual(a?.rejected.slice(0, 10), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'rejections only in the second half');
  assert.ok((a?.rejected.slice(10).reduce((x, y) => x + y) ?? 0) === 10);
});
