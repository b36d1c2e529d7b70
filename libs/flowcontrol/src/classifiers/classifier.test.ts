import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import type { CheckHTTPRequest__Output } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { PolicyClassifier, type ClassifierRule } from './classifier.js';
import { Sampler } from '../limiters/sampler.js';
import { httpFlowLabels } from '../labels/http-labels.js';
import { parseJsonPointer, resolveJsonPointer } from './json-pointer.js';
import type { CheckDecision } from '../check/decision.js';

const identity = { policy_name: 'p', policy_hash: 'h', classifier_index: 0 };

function httpRequest(over: { headers?: Record<string, string>; body?: string; truncated?: boolean; method?: string } = {}): CheckHTTPRequest__Output {
  return {
    source: { protocol: 'TCP', address: '10.0.0.7', port: 51234 },
    destination: { protocol: 'TCP', address: '10.0.0.9', port: 8080 },
    control_point: 'ingress',
    request: {
      method: over.method ?? 'POST', headers: { 'user-agent': 'curl/8.5', 'content-type': 'application/json', ...over.headers },
      path: '/api/orders?x=1', host: 'shop.example', scheme: 'http', size: over.body?.length ?? 0, protocol: 'HTTP/1.1',
      body: over.body ?? '', truncated_body: over.truncated ?? false,
    },
    ramp_mode: false,
  };
}

function check(engine: Engine, http: CheckHTTPRequest__Output): CheckDecision {
  const d = engine.check({ controlPoint: 'ingress', labels: httpFlowLabels(http.request), services: [], type: 'http', http });
  assert.ok(!(d instanceof Promise));
  return d;
}

const rules: Record<string, ClassifierRule> = {
  ua: { extractor: { from: 'request.http.headers.User-Agent' } },
  method: { extractor: { from: 'request.http.method' } },
  path: { extractor: { from: 'request.http.path' } },
  host: { extractor: { from: 'request.http.host' } },
  src: { extractor: { from: 'source.address' } },
  tier: { extractor: { json: { from: 'request.http.body', pointer: '/user/tier' } } },
  first_item: { extractor: { json: { from: 'request.http.body', pointer: '/items/0/sku' } } },
  qty: { extractor: { json: { from: 'request.http.body', pointer: '/items/0/qty' } } },
};

test('a classifier sets labels from HTTP attributes and a JSON pointer into the body', () => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules }), { control_point: 'ingress' });
  const d = check(engine, httpRequest({ body: JSON.stringify({ user: { tier: 'gold' }, items: [{ sku: 'a/b', qty: 3 }] }) }));
  assert.deepEqual(d.addedLabels, {
    ua: 'curl-8.5', method: 'POST', path: '-api-orders?x=1', host: 'shop.example', src: '10.0.0.7', tier: 'gold', first_item: 'a-b', qty: '3',
  }, 'outputs are sanitized by the engine (/ becomes -)');
  assert.equal(d.labels.tier, 'gold');
  assert.equal(d.labels['http.method'], 'POST', 'request labels stay');
  assert.deepEqual(d.classifiers, [{ policy_name: 'p', policy_hash: 'h', classifier_index: 0, failed: false }]);
});

test('a body that is truncated, too long, not JSON, or a pointer to nothing or an object leaves the label absent', () => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules: { tier: rules.tier, user: { extractor: { json: { from: 'request.http.body', pointer: '/user' } } } }, maxJsonLength: 100 }), { control_point: 'ingress' });
  const body = JSON.stringify({ user: { tier: 'gold' } });
  assert.equal(check(engine, httpRequest({ body })).labels.tier, 'gold');
  assert.equal(check(engine, httpRequest({ body, truncated: true })).addedLabels, undefined, 'truncated by the tap');
  assert.equal(check(engine, httpRequest({ body: JSON.stringify({ user: { tier: 'gold' }, pad: 'x'.repeat(200) }) })).addedLabels, undefined, 'over maxJsonLength');
  assert.equal(check(engine, httpRequest({ body: '{"user": {"tier": "gold"' })).addedLabels, undefined, 'not JSON');
  assert.equal(check(engine, httpRequest({ body: '{"user": {}}' })).addedLabels, undefined, 'nothing there; /user is an object');
  assert.equal(check(engine, httpRequest({ body: '{"user": {"tier": null}}' })).addedLabels, undefined, 'null');
  assert.equal(check(engine, httpRequest()).addedLabels, undefined, 'no body');
});

test('the body is parsed once per flow, whatever the number of rules and classifiers', (t) => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules }), { control_point: 'ingress' });
  engine.register(new PolicyClassifier({ identity: { ...identity, classifier_index: 1 }, rules: { tier2: rules.tier } }), { control_point: 'ingress' });
  const parse = t.mock.method(JSON, 'parse');
  const d = check(engine, httpRequest({ body: '{"user": {"tier": "gold"}, "items": []}' }));
  assert.equal(d.labels.tier2, 'gold');
  assert.equal(parse.mock.callCount(), 1);
});

test('flows of the check API (no HTTP attributes) are not classified', () => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules }), { control_point: 'ingress' });
  const d = engine.check({ controlPoint: 'ingress', labels: { user: 'x' }, services: [] });
  assert.ok(!(d instanceof Promise));
  assert.equal(d.addedLabels, undefined);
});

test('classifier labels reach the limiters: a sampler keyed on a label taken from the body', () => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules: { tier: rules.tier } }), { control_point: 'ingress' });
  const sampler = new Sampler({
    identity: { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' }, labelKey: 'tier', passThroughLabelValues: ['gold'],
    decision: { accept_percentage: 0, pass_through: false },
  });
  engine.register(sampler, { control_point: 'ingress', label_matcher: { match_labels: { tier: 'gold' } } });
  engine.register(sampler, { control_point: 'ingress', label_matcher: { match_labels: { tier: 'free' } } });
  assert.equal(check(engine, httpRequest({ body: '{"user": {"tier": "gold"}}' })).accepted, true);
  const free = check(engine, httpRequest({ body: '{"user": {"tier": "free"}}' }));
  assert.equal(free.accepted, false);
  assert.equal(free.deniedStatus, 403);
  assert.equal(check(engine, httpRequest({ body: '{"user": {"tier": "none"}}' })).accepted, true, 'no selector matched');
});

test('an address extractor sets <ip>:<port>, absent when the address or its port is', () => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules: {
    src: { extractor: { address: { from: 'source.address' } } },
    dst: { extractor: { address: { from: 'destination.address' } } },
  } }), { control_point: 'ingress' });
  const d = check(engine, httpRequest());
  assert.deepEqual(d.addedLabels, { src: '10.0.0.7:51234', dst: '10.0.0.9:8080' });
  const noPort = httpRequest();
  noPort.source = { protocol: 'TCP', address: '10.0.0.7', port: 0 };
  noPort.destination = null;
  assert.equal(check(engine, noPort).addedLabels, undefined);
});

test('a path_templates extractor sets the value of the most specific template the path matches', () => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules: {
    route: { extractor: { path_templates: { template_values: { '/static/*': 'static', '/api/{resource}': 'api', '/api/orders': 'orders', '/': 'root' } } } },
  } }), { control_point: 'ingress' });
  const route = (path: string): string | undefined => {
    const http = httpRequest();
    if (http.request !== null) http.request.path = path;
    return check(engine, http).addedLabels?.route;
  };
  assert.equal(route('/api/orders?x=1'), 'orders', 'static beats a parameter; the query ignored');
  assert.equal(route('/api/users'), 'api');
  assert.equal(route('//api//users/'), 'api', 'empty segments ignored');
  assert.equal(route('/static'), 'static');
  assert.equal(route('/static/css/a.css'), 'static');
  assert.equal(route('/'), 'root');
  assert.equal(route('/api/users/7'), undefined, 'no template matches: absent');
});

test('a jwt extractor reads its payload without verifying it; request.http.bearer is the token of Authorization: Bearer', () => {
  const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ user: { email: 'a@example.com', plan: { tier: 'gold' } }, n: 3 })}.not-checked`;
  const engine = new Engine();
  engine.register(new PolicyClassifier({ identity, rules: {
    email: { extractor: { jwt: { from: 'request.http.bearer', json_pointer: '/user/email' } } },
    n: { extractor: { jwt: { from: 'request.http.headers.x-token', json_pointer: '/n' } } },
    plan: { extractor: { jwt: { from: 'request.http.bearer', json_pointer: '/user/plan' } } },
    raw: { extractor: { json: { from: 'request.http.headers.x-token', pointer: '' } } },
  } }), { control_point: 'ingress' });
  const labels = (headers: Record<string, string>) => check(engine, httpRequest({ headers })).addedLabels;
  assert.deepEqual(labels({ authorization: `Bearer ${token}`, 'x-token': token }), { email: 'a@example.com', n: '3' }, 'an object leaves its label absent; the token is not JSON');
  assert.equal(labels({ authorization: `Basic ${token}` }), undefined, 'not a bearer token');
  assert.equal(labels({ authorization: 'Bearer not-a-jwt' }), undefined);
  assert.equal(labels({ authorization: `Bearer ${b64({})}.${Buffer.from('not json').toString('base64url')}.s` }), undefined, 'a payload that is not JSON');
  assert.equal(labels({ authorization: `Bearer a.b+c.d` }), undefined, 'not base64url');
  assert.deepEqual(labels({ 'x-token': '"plain"' }), { raw: 'plain' }, 'a JSON rule on the same attribute keeps its own parse');
});

test('bad rules are refused naming the rule', () => {
  const bad: [unknown, string][] = [
    [{ x: { extractor: { from: 'request.http.nope' } } }, 'rules.x.extractor.from'],
    [{ x: { extractor: { from: 'request.http.headers.' } } }, 'rules.x.extractor.from'],
    [{ x: { extractor: { json: { from: 'request.http.body', pointer: 'user/tier' } } } }, 'rules.x.extractor.json.pointer'],
    [{ x: { extractor: { json: { from: 'request.http.body', pointer: '/a~2' } } } }, 'rules.x.extractor.json.pointer'],
    [{ x: { extractor: { json: { from: 'request.body', pointer: '/a' } } } }, 'rules.x.extractor.json.from'],
    [{ x: { extractor: {} } }, 'rules.x.extractor'],
    [{ x: {} }, 'rules.x.extractor'],
    [{ x: null }, 'rules.x.extractor'],
    [null, 'rules'],
  ];
  for (const [r, field] of bad) {
    assert.throws(() => new PolicyClassifier({ identity, rules: r as Record<string, ClassifierRule> }), (e: unknown) => e instanceof InvalidArgumentError && e.field === field, JSON.stringify(r));
  }
});

test('JSON pointers follow RFC 6901 and never reach inherited members', () => {
  const doc = { 'a/b': { 'm~n': [10, 20] }, '': 1, arr: [1] };
  assert.deepEqual(parseJsonPointer('/a~1b/m~0n/1'), ['a/b', 'm~n', '1']);
  assert.equal(resolveJsonPointer(doc, parseJsonPointer('/a~1b/m~0n/1') ?? []), 20);
  assert.equal(resolveJsonPointer(doc, parseJsonPointer('/') ?? []), 1);
  assert.equal(resolveJsonPointer(doc, parseJsonPointer('') ?? []), doc);
  for (const p of ['/__proto__', '/constructor', '/arr/length', '/arr/01', '/arr/-', '/arr/1', '/arr/0/x']) {
    assert.equal(resolveJsonPointer(doc, parseJsonPointer(p) ?? []), undefined, p);
  }
  assert.equal(parseJsonPointer('a'), undefined);
  assert.equal(parseJsonPointer('/~'), undefined);
});
