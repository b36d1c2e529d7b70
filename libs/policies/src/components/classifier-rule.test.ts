import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePolicy } from '../compile.js';
import { PolicyCompileError } from '../problems.js';
import { checkClassifierRule, isClassifierAttributePath, parseJsonPointer } from './classifier-rule.js';

test('checkClassifierRule accepts what the agent runs and names the member at fault otherwise', () => {
  assert.deepEqual(checkClassifierRule('ua', { extractor: { from: 'request.http.headers.User-Agent' } }, 'r'), {
    rule: { label: 'ua', kind: 'attribute', from: 'request.http.headers.User-Agent', pointer: undefined, telemetry: true },
  });
  assert.deepEqual(checkClassifierRule('t', { extractor: { json: { from: 'request.http.body', pointer: '/a~1b/0' } }, telemetry: false }, 'r'), {
    rule: { label: 't', kind: 'json', from: 'request.http.body', pointer: ['a/b', '0'], telemetry: false },
  });
  assert.deepEqual(checkClassifierRule('t', { extractor: { json: { from: 'request.http.body' } } }, 'r'), {
    rule: { label: 't', kind: 'json', from: 'request.http.body', pointer: [], telemetry: true },
  }, 'no pointer: the whole document');
  assert.deepEqual(checkClassifierRule('peer', { extractor: { address: { from: 'destination.address' } } }, 'r'), {
    rule: { label: 'peer', kind: 'address', from: 'destination.address', pointer: undefined, telemetry: true },
  });
  const pt = checkClassifierRule('route', { extractor: { path_templates: { template_values: { '/*': 'other', '/user/{id}': 'user' } } } }, 'r');
  assert.ok('rule' in pt);
  assert.equal(pt.rule.kind, 'path_templates');
  assert.deepEqual(pt.rule.templates?.map((t) => t.value), ['user', 'other'], 'the most specific first');
  assert.deepEqual(checkClassifierRule('e', { extractor: { jwt: { from: 'request.http.bearer', json_pointer: '/user/email' } } }, 'r'), {
    rule: { label: 'e', kind: 'jwt', from: 'request.http.bearer', pointer: ['user', 'email'], telemetry: true },
  });
  const bad: [string, unknown, string, RegExp][] = [
    ['x', { extractor: { jwt: { from: 'request.http.token', json_pointer: '/a' } } }, 'r.extractor.jwt.from', /unknown attribute path/],
    ['x', { extractor: { jwt: { from: 'request.http.bearer', json_pointer: 'user' } } }, 'r.extractor.jwt.json_pointer', /not a JSON pointer/],
    ['x', { extractor: { path_templates: { template_values: {} } } }, 'r.extractor.path_templates.template_values', /at least one/],
    ['x', { extractor: { path_templates: { template_values: { '/a/*/b': 'v' } } } }, 'r.extractor.path_templates.template_values["/a/*/b"]', /last segment/],
    ['x', { extractor: { path_templates: { template_values: { '/a': '' } } } }, 'r.extractor.path_templates.template_values["/a"]', /non-empty/],
    ['x', { extractor: { path_templates: {} } }, 'r.extractor', /exactly one/],
    ['x', { extractor: { address: { from: 'request.http.host' } } }, 'r.extractor.address.from', /source\.address or destination\.address/],
    ['x', { extractor: { address: {} } }, 'r.extractor', /exactly one/],
    ['', { extractor: { from: 'request.http.method' } }, 'r', /label name/],
    ['x', { extractor: { from: 'request.http.nope' } }, 'r.extractor.from', /unknown attribute path "request\.http\.nope"/],
    ['x', { extractor: { from: 'request.http.headers.' } }, 'r.extractor.from', /unknown attribute path/],
    ['x', { extractor: { json: { from: 'request.body', pointer: '/a' } } }, 'r.extractor.json.from', /unknown attribute path/],
    ['x', { extractor: { json: { from: 'request.http.body', pointer: 'a' } } }, 'r.extractor.json.pointer', /not a JSON pointer/],
    ['x', { extractor: { json: { from: 'request.http.body', pointer: '/a~2' } } }, 'r.extractor.json.pointer', /not a JSON pointer/],
    ['x', { extractor: { json: { from: 'request.http.body', pointer: '/a~' } } }, 'r.extractor.json.pointer', /not a JSON pointer/],
    ['x', { extractor: { from: 'request.http.method', json: { from: 'request.http.body' } } }, 'r.extractor', /exactly one/],
    ['x', { extractor: { rego: {} } }, 'r.extractor', /exactly one/],
    ['x', { extractor: {} }, 'r.extractor', /exactly one/],
    ['x', {}, 'r.extractor', /needs an extractor/],
    ['x', null, 'r.extractor', /needs an extractor/],
    ['x', { extractor: { from: 'request.http.method' }, telemetry: 'no' }, 'r.telemetry', /true or false/],
  ];
  for (const [label, rule, path, message] of bad) {
    const r = checkClassifierRule(label, rule, 'r');
    assert.ok('problem' in r, JSON.stringify(rule));
    assert.equal(r.problem.path, path, JSON.stringify(rule));
    assert.match(r.problem.message, message);
  }
  assert.equal(isClassifierAttributePath('source.port'), true);
  assert.equal(isClassifierAttributePath('source'), false);
  assert.equal(parseJsonPointer('x'), undefined);
  assert.deepEqual(parseJsonPointer('/~0~1'), ['~/']);
});

function classifierPolicy(rules: unknown, extra: Record<string, unknown> = {}): unknown {
  return { resources: { flow_control: { classifiers: [{ selectors: [{ control_point: 'ingress' }], rules, ...extra }] } } };
}

function problemPaths(spec: unknown): string[] {
  try {
    compilePolicy('p', spec);
  } catch (e) {
    assert.ok(e instanceof PolicyCompileError, String(e));
    return e.problems.map((p) => p.path);
  }
  return [];
}

test('the controller refuses the rules the agent cannot run, by JSON path, and keeps rego refused', () => {
  const at = 'spec.resources.flow_control.classifiers[0]';
  assert.deepEqual(problemPaths(classifierPolicy({
    ok: { extractor: { from: 'request.http.method' } },
    user: { extractor: { from: 'request.http.user' } },
    tier: { extractor: { json: { from: 'request.http.body', pointer: '/a~2' } } },
  })), [`${at}.rules.user.extractor.from`, `${at}.rules.tier.extractor.json.pointer`]);
  assert.deepEqual(problemPaths(classifierPolicy({ ok: { extractor: { from: 'request.http.method' } } }, { rego: { module: 'package x' } })), [`${at}.rego`]);
  assert.deepEqual(problemPaths(classifierPolicy({ ok: { extractor: { json: { from: 'request.http.body', pointer: '/a~1b' } } } })), [], 'a valid pointer passes');
  assert.deepEqual(problemPaths(classifierPolicy({ peer: { extractor: { address: { from: 'source.port' } } } })), [`${at}.rules.peer.extractor.address.from`]);
  assert.deepEqual(problemPaths(classifierPolicy({ route: { extractor: { path_templates: { template_values: { '/{id}/a': 'v' } } } } })),
    [`${at}.rules.route.extractor.path_templates.template_values["/{id}/a"]`]);
  const routes = compilePolicy('p', classifierPolicy({ route: { extractor: { path_templates: { template_values: { '/user/{id}': 'user' } } } } })).components[0];
  assert.ok(routes.kind === 'classifier');
  assert.deepEqual(routes.rules, { route: { extractor: { path_templates: { template_values: { '/user/{id}': 'user' } } } } });
  assert.deepEqual(problemPaths(classifierPolicy({ user: { extractor: { jwt: { from: 'request.http.bearer', json_pointer: 'email' } } } })), [`${at}.rules.user.extractor.jwt.json_pointer`]);
  const jwt = compilePolicy('p', classifierPolicy({ user: { extractor: { jwt: { from: 'request.http.bearer' } } } })).components[0];
  assert.ok(jwt.kind === 'classifier');
  assert.deepEqual(jwt.rules, { user: { extractor: { jwt: { from: 'request.http.bearer', json_pointer: '' } } } });
  const published = compilePolicy('p', classifierPolicy({ peer: { extractor: { address: { from: 'source.address' } }, telemetry: false } })).components[0];
  assert.ok(published.kind === 'classifier');
  assert.deepEqual(published.rules, { peer: { extractor: { address: { from: 'source.address' } }, telemetry: false } });
});
