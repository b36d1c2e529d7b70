import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy, validatePolicy } from '../compile.js';

type Obj = Record<string, unknown>;
const s = (name: string) => ({ signal_name: name });
const NaNVariable = (name: string) => ({ variable: { constant_output: { special_value: 'NaN' }, out_ports: { output: s(name) } } });

function alerterPolicy(parameters: Obj = {}): Obj {
  return {
    circuit: {
      components: [
        NaNVariable('OVERLOAD'),
        { alerter: { in_ports: { signal: s('OVERLOAD') }, parameters: { alert_name: 'Overloaded', ...parameters } } },
      ],
    },
  };
}

test('an alerter raises its alert while the signal is valid and non-zero, and not otherwise', () => {
  const circuit = compilePolicy('svc', alerterPolicy({ severity: 'crit', resolve_timeout: '30s', alert_channels: ['pager', 'chat'], labels: { team: 'edge' } })).createCircuit();
  const tick = (v: number) => circuit.tick(0, { promql: new Map(), variables: new Map([['OVERLOAD', v]]) }).alerts;
  assert.equal(circuit.tick(0, { promql: new Map(), variables: new Map() }).alerts, undefined, 'invalid (NaN) raises nothing');
  assert.equal(tick(0), undefined, 'zero raises nothing');
  for (const v of [1, -2, 0.5, Number.POSITIVE_INFINITY]) {
    const alerts = tick(v);
    assert.equal(alerts?.length, 1, `value ${v}`);
    assert.deepEqual(alerts?.[0], {
      name: 'Overloaded', severity: 'crit', resolveTimeoutMs: 30_000, channels: ['pager', 'chat'],
      labels: { policy_name: 'svc', component_id: 'root.1', type: 'alerter', team: 'edge' },
    });
  }
});

test('alerter defaults: severity info, resolve timeout 5s, no channels; it is no longer reported as ignored', () => {
  const c = compilePolicy('p', alerterPolicy());
  assert.deepEqual(c.ignored, []);
  const alerts = c.createCircuit().tick(0, { promql: new Map(), variables: new Map([['OVERLOAD', 1]]) }).alerts;
  assert.equal(alerts?.[0].severity, 'info');
  assert.equal(alerts?.[0].resolveTimeoutMs, 5000);
  assert.deepEqual(alerts?.[0].channels, []);
});

test('bad alerter parameters are refused with their path', () => {
  const at = 'spec.circuit.components[1].alerter';
  const cases: [string, Obj, string, RegExp][] = [
    ['no name', { circuit: { components: [NaNVariable('X'), { alerter: { in_ports: { signal: s('X') }, parameters: {} } }] } }, `${at}.parameters.alert_name`, /missing required field/],
    ['empty name', alerterPolicy({ alert_name: '' }), `${at}.parameters.alert_name`, /./],
    ['bad severity', alerterPolicy({ severity: 'fatal' }), `${at}.parameters.severity`, /allowed values/],
    ['zero resolve timeout', alerterPolicy({ resolve_timeout: '0s' }), `${at}.parameters.resolve_timeout`, /./],
    ['bad label name', alerterPolicy({ labels: { 'a-b': 'x' } }), `${at}.parameters.labels`, /./],
    ['reserved label', alerterPolicy({ labels: { severity: 'x' } }), `${at}.parameters.labels.severity`, /sets severity itself/],
    ['signal nobody writes', { circuit: { components: [{ alerter: { in_ports: { signal: s('NOPE') }, parameters: { alert_name: 'a' } } }] } }, 'spec.circuit.components[0].alerter.in_ports.signal', /NOPE/],
  ];
  for (const [what, spec, path, msg] of cases) {
    const problems = validatePolicy(spec);
    const hit = problems.find((p) => p.path.startsWith(path));
    assert.ok(hit !== undefined, `${what}: expected a problem at ${path}, got ${JSON.stringify(problems)}`);
    assert.match(hit.message, msg, what);
  }
});

test('an adaptive load scheduler with an alerter raises it while the published multiplier is below 1', () => {
  const spec = {
    circuit: {
      evaluation_interval: '1s',
      components: [NaNVariable('LAT'), NaNVariable('SET'), {
        flow_control: {
          adaptive_load_scheduler: {
            in_ports: { signal: s('LAT'), setpoint: s('SET') },
            parameters: {
              gradient: { slope: -1, min_gradient: 0.1, max_gradient: 1 },
              load_multiplier_linear_increment: 0.5,
              max_load_multiplier: 2,
              load_scheduler: { selectors: [{ control_point: 'ingress' }] },
              alerter: { alert_name: 'Load Throttling Event', severity: 'warn' },
            },
          },
        },
      }],
    },
  };
  const circuit = compilePolicy('als', spec).createCircuit();
  let t = 0;
  const tick = (lat: number) => circuit.tick((t += 1000), { promql: new Map(), variables: new Map([['LAT', lat], ['SET', 100]]) }).alerts;
  assert.equal(tick(50), undefined, 'no overload: pass-through, no alert');
  const raised = tick(400); // the multiplier drops to 1 × 100/400
  assert.equal(raised?.length, 1);
  assert.equal(raised?.[0].name, 'Load Throttling Event');
  assert.deepEqual(raised?.[0].labels, { policy_name: 'als', component_id: 'root.2', type: 'adaptive_load_scheduler' });
  assert.equal(tick(50)?.length, 1, 'recovering at 0.75: still throttling');
  assert.equal(tick(50), undefined, 'recovered to 1.25: above 1, no alert');
});
