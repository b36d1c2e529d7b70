import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy, validatePolicy } from './compile.js';
import { parseProto3Number } from './schema/fields.js';
import type { PublishedFluxMeter, PublishedLoadScheduler, PublishedRateLimiter } from './published.js';
import { rateLimiterPolicy } from './test-fixtures.js';

type Obj = Record<string, unknown>;
const NONE = { promql: new Map<string, number>(), variables: new Map<string, number>() };

/** A load scheduler whose numbers are written as proto3 JSON writes them. */
function scheduler(priority: unknown, tokens: unknown, count: unknown = '3'): Obj {
  return {
    circuit: {
      components: [
        { variable: { constant_output: { value: '0.5' }, out_ports: { output: { signal_name: 'LM' } } } },
        {
          flow_control: {
            load_scheduler: {
              in_ports: { load_multiplier: { signal_name: 'LM' } },
              parameters: {
                selectors: [{ control_point: 'ingress' }],
                scheduler: { workloads: [{ name: 'gold', parameters: { priority, tokens } }] },
              },
            },
          },
        },
      ],
    },
    resources: { flow_control: { flux_meters: { m: { selectors: [{ control_point: 'ingress' }], linear_buckets: { start: '10', width: '1e1', count } } } } },
  };
}

test('proto3 JSON numbers: integer strings, decimal strings and the special values parse; anything else says why', () => {
  assert.deepEqual(parseProto3Number('50', 'integer', false), { value: 50 });
  assert.deepEqual(parseProto3Number('-7', 'integer', false), { value: -7 });
  assert.deepEqual(parseProto3Number('1e2', 'integer', false), { value: 100 });
  assert.deepEqual(parseProto3Number('0.25', 'double', false), { value: 0.25 });
  assert.deepEqual(parseProto3Number('-1.5E-3', 'double', false), { value: -0.0015 });
  assert.deepEqual(parseProto3Number(3, 'double', false), { value: 3 });
  assert.ok(Number.isNaN((parseProto3Number('NaN', 'double', true) as { value: number }).value));
  assert.deepEqual(parseProto3Number('Infinity', 'double', true), { value: Number.POSITIVE_INFINITY });
  assert.deepEqual(parseProto3Number('-Infinity', 'double', true), { value: Number.NEGATIVE_INFINITY });
  for (const [value, kind, special] of [
    ['1.5', 'integer', false], ['NaN', 'double', false], ['Infinity', 'integer', true], ['', 'double', false], [' 5', 'double', false],
    ['0x10', 'integer', false], ['+5', 'double', false], ['05', 'integer', false], ['5.', 'double', false], ['1e999', 'double', false],
    [true, 'double', false], [null, 'integer', false], ['inf', 'double', true],
  ] as const) {
    const parsed = parseProto3Number(value, kind, special);
    assert.ok('error' in parsed, `${JSON.stringify(value)} as ${kind} should be refused`);
  }
});

test('a policy written with int64 and double strings compiles to the same numbers as one written with numbers', () => {
  const strings = compilePolicy('p', scheduler('50', '2.5'));
  const numbers = compilePolicy('p', { ...scheduler(50, 2.5, 3), circuit: { components: [
    { variable: { constant_output: { value: 0.5 }, out_ports: { output: { signal_name: 'LM' } } } },
    (scheduler(50, 2.5).circuit as { components: Obj[] }).components[1],
  ] }, resources: { flow_control: { flux_meters: { m: { selectors: [{ control_point: 'ingress' }], linear_buckets: { start: 10, width: 10, count: 3 } } } } } });
  const ls = (c: typeof strings) => c.components.find((x): x is PublishedLoadScheduler => x.kind === 'load_scheduler')!;
  const fm = (c: typeof strings) => c.components.find((x): x is PublishedFluxMeter => x.kind === 'flux_meter')!;
  assert.deepEqual(ls(strings).parameters, ls(numbers).parameters);
  assert.deepEqual((ls(strings).parameters.workloads as { parameters: unknown }[])[0].parameters, { priority: 50, tokens: 2.5 });
  assert.deepEqual(fm(strings).buckets, [10, 20, 30]);
  // The variable's "0.5" is the multiplier the circuit decides.
  assert.deepEqual(strings.createCircuit().tick(0, NONE).decisions.get('root.1'), { kind: 'load_scheduler', load_multiplier: 0.5, pass_through: false });
  // The spec is kept as written (strings and all).
  assert.equal(((((strings.spec as Obj).circuit as Obj).components as Obj[])[0].variable as Obj & { constant_output: Obj }).constant_output.value, '0.5');
});

test('a string that is not a number is refused at its JSON path, once, with what the field wants', () => {
  const problems = validatePolicy(scheduler('high', '1', '2.5'));
  const at = (path: string) => problems.filter((p) => p.path === path);
  const wl = 'spec.circuit.components[1].flow_control.load_scheduler.parameters.scheduler.workloads[0].parameters.priority';
  assert.equal(at(wl).length, 1, JSON.stringify(problems));
  assert.match(at(wl)[0].message, /"high" is not a finite number/);
  const count = 'spec.resources.flow_control.flux_meters.m.linear_buckets.count';
  assert.equal(at(count).length, 1, JSON.stringify(problems));
  assert.match(at(count)[0].message, /"2\.5" is not an integer/);
  assert.equal(problems.length, 2, JSON.stringify(problems));
});

test('bounds hold for numbers written as strings', () => {
  const problems = validatePolicy(scheduler('-1', '1'));
  assert.ok(problems.some((p) => p.path.endsWith('workloads[0].parameters.priority') && /must be > 0/.test(p.message)), JSON.stringify(problems));
  assert.ok(validatePolicy(scheduler('1', '1', '0')).some((p) => p.path.endsWith('linear_buckets.count')));
});

test('NaN and Infinity are numbers only where the field allows them: a constant signal, not a priority', () => {
  const nan = scheduler('1', '1');
  ((nan.circuit as { components: Obj[] }).components[0].variable as Obj).constant_output = { value: 'NaN' };
  const compiled = compilePolicy('p', nan);
  // An invalid multiplier: the scheduler stays without a decision.
  assert.equal(compiled.createCircuit().tick(0, NONE).decisions.get('root.1'), undefined);
  const inf = rateLimiterPolicy();
  const ports = (((inf.circuit as { components: Obj[] }).components[0].flow_control as Obj).rate_limiter as Obj).in_ports as Obj;
  ports.bucket_capacity = { constant_signal: { value: 'Infinity' } };
  assert.ok(validatePolicy(inf).some((p) => p.path.endsWith('in_ports.bucket_capacity.constant_signal.value') && /finite/.test(p.message)));
  const problems = validatePolicy(scheduler('Infinity', '1'));
  assert.ok(problems.some((p) => p.path.endsWith('workloads[0].parameters.priority') && /"Infinity" is not allowed here/.test(p.message)), JSON.stringify(problems));
});

test('max_idle_time 0s (never drop a bucket) is published as 0; a negative one is refused', () => {
  const spec = rateLimiterPolicy();
  const rl = ((spec.circuit as { components: Obj[] }).components[0].flow_control as Obj).rate_limiter as { parameters: Obj };
  rl.parameters.max_idle_time = '0s';
  const c = compilePolicy('p', spec).components[0] as PublishedRateLimiter;
  assert.equal(c.parameters.max_idle_time_ms, 0);
  rl.parameters.max_idle_time = '-1s';
  assert.ok(validatePolicy(spec).some((p) => p.path.endsWith('parameters.max_idle_time')));
});

test('a flux meter named with "/" keeps its name and gets a component id without "/"', () => {
  const spec = { resources: { flow_control: { flux_meters: {
    'load-ramping/average_latency/0': { selectors: [{ control_point: 'ingress' }] },
    'odd%2Fname': { selectors: [{ control_point: 'ingress' }] },
  } } } };
  const meters = compilePolicy('p', spec).components as PublishedFluxMeter[];
  assert.deepEqual(meters.map((m) => [m.name, m.component_id]), [
    ['load-ramping/average_latency/0', 'flux_meter.load-ramping%2Faverage_latency%2F0'],
    ['odd%2Fname', 'flux_meter.odd%252Fname'],
  ]);
  assert.ok(validatePolicy({ resources: { flow_control: { flux_meters: { '': { selectors: [{ control_point: 'ingress' }] } } } } }).length > 0);
});
