import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import type { CheckHTTPRequest__Output } from '@sluice/proto';
import { baggageWith } from '../labels/baggage-header.js';
import { toCheckHTTPResponse } from '../checkhttp/checkhttp-decide.js';
import { Engine } from '../check/engine.js';
import { PolicyClassifier, type ClassifierRule } from './classifier.js';
import { Sampler } from '../limiters/sampler.js';
import { httpFlowLabels } from '../labels/http-labels.js';
import type { CheckDecision } from '../check/decision.js';

function httpRequest(headers: Record<string, string>): CheckHTTPRequest__Output {
  return {
    source: null, destination: null,
    control_point: 'ingress',
    request: { method: 'GET', headers, path: '/', host: 'shop.example', scheme: 'http', size: 0, protocol: 'HTTP/1.1', body: '', truncated_body: false },
    ramp_mode: false,
  };
}

function classifier(index: number, rules: Record<string, ClassifierRule>): PolicyClassifier {
  return new PolicyClassifier({ identity: { policy_name: 'p', policy_hash: 'h', classifier_index: index }, rules });
}

function decide(engine: Engine, http: CheckHTTPRequest__Output): CheckDecision {
  const d = engine.check({ controlPoint: 'ingress', labels: httpFlowLabels(http.request), services: [], type: 'http', http });
  assert.ok(!(d instanceof Promise));
  return d;
}

function baggageOfAnswer(d: CheckDecision, http: CheckHTTPRequest__Output): string | undefined {
  const a = toCheckHTTPResponse(d, http);
  assert.ok('ok_response' in a && a.ok_response !== undefined && a.ok_response !== null, 'accepted');
  return (a.ok_response.headers ?? []).find((h) => h.key === 'baggage')?.value;
}

test('a rule with telemetry: false lists its label as hidden; telemetry must be a boolean', () => {
  const c = classifier(0, {
    user: { extractor: { from: 'request.http.headers.x-user' }, telemetry: false },
    tier: { extractor: { from: 'request.http.headers.x-tier' }, telemetry: true },
    ua: { extractor: { from: 'request.http.headers.user-agent' } },
  });
  assert.deepEqual([...(c.hiddenLabels ?? [])], ['user']);
  assert.equal(classifier(0, { ua: { extractor: { from: 'request.http.method' } } }).hiddenLabels, undefined, 'nothing hidden');
  assert.throws(
    () => classifier(0, { user: { extractor: { from: 'request.http.method' }, telemetry: 'no' as unknown as boolean } }),
    (e: unknown) => e instanceof InvalidArgumentError && e.field === 'rules.user.telemetry',
  );
});

test('a hidden label reaches the flow and the limiters but not the baggage of the answer', () => {
  const engine = new Engine();
  engine.register(classifier(0, {
    user: { extractor: { from: 'request.http.headers.x-user' }, telemetry: false },
    tier: { extractor: { from: 'request.http.headers.x-tier' } },
  }), { control_point: 'ingress' });
  // rejects every flow whose hidden label is `mallory`: the limiters see it
  const sampler = new Sampler({
    identity: { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' }, labelKey: 'user', passThroughLabelValues: [],
    decision: { accept_percentage: 0, pass_through: false },
  });
  engine.register(sampler, { control_point: 'ingress', label_matcher: { match_labels: { user: 'mallory' } } });

  const http = httpRequest({ 'x-user': 'alice', 'x-tier': 'gold', baggage: 'trace=t1' });
  const d = decide(engine, http);
  assert.equal(d.labels.user, 'alice', 'the flow has the hidden label');
  assert.deepEqual([...(d.hiddenLabels ?? [])], ['user']);
  assert.equal(baggageOfAnswer(d, http), 'trace=t1,tier=gold', 'the hidden label is not in the baggage; the request\'s baggage and the other label are');

  assert.equal(decide(engine, httpRequest({ 'x-user': 'mallory' })).accepted, false, 'a limiter selected by the hidden label');

  const onlyHidden = httpRequest({ 'x-user': 'alice' });
  assert.equal(baggageOfAnswer(decide(engine, onlyHidden), onlyHidden), undefined, 'only a hidden label added: no baggage header');
});

test('the classifier that sets a label last decides whether it is hidden', () => {
  const hiddenFirst = new Engine();
  hiddenFirst.register(classifier(0, { user: { extractor: { from: 'request.http.headers.x-user' }, telemetry: false } }), { control_point: 'ingress' });
  hiddenFirst.register(classifier(1, { user: { extractor: { from: 'request.http.headers.x-login' } } }), { control_point: 'ingress' });
  const http = httpRequest({ 'x-user': 'alice', 'x-login': 'al' });
  const shown = decide(hiddenFirst, http);
  assert.equal(shown.hiddenLabels, undefined);
  assert.equal(baggageOfAnswer(shown, http), 'user=al');

  const hiddenLast = new Engine();
  hiddenLast.register(classifier(0, { user: { extractor: { from: 'request.http.headers.x-login' } } }), { control_point: 'ingress' });
  hiddenLast.register(classifier(1, { user: { extractor: { from: 'request.http.headers.x-user' }, telemetry: false } }), { control_point: 'ingress' });
  const hidden = decide(hiddenLast, http);
  assert.equal(hidden.labels.user, 'alice');
  assert.equal(baggageOfAnswer(hidden, http), undefined);
});

test('baggageWith leaves hidden keys out', () => {
  assert.equal(baggageWith('a=1', { b: '2', c: 'x y' }, new Set(['b'])), 'a=1,c=x%20y');
  assert.equal(baggageWith(undefined, { b: '2' }, new Set(['b'])), undefined);
  assert.equal(baggageWith(undefined, { b: '2' }), 'b=2');
});
