// The in-process tap reads a decision directly (answerOfDecision); it must read exactly what it
// read from the wire answer of the same decision (answerOf of toCheckHTTPResponse), for every
// kind of decision: accepted with and without baggage to add, measured or not, denials of each
// status with and without a wait, a reject reason the wire does not know.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Engine, PolicyClassifier, RATE_LIMITER_KIND, SAMPLER_KIND, httpFlowLabels, toCheckHTTPResponse, type CheckDecision, type HeaderInterest,
} from '@sluice/flowcontrol';
import type { CheckHTTPRequest__Output } from '@sluice/proto';
import { decisionOf } from '../check/decision.js';
import { answerOf, answerOfDecision } from './engine-answer.js';

function httpRequest(headers: Record<string, string>): CheckHTTPRequest__Output {
  return {
    source: null, destination: null, control_point: 'ingress',
    request: { method: 'GET', headers, path: '/', host: 'shop.example', scheme: 'http', size: 0, protocol: 'HTTP/1.1', body: '', truncated_body: false },
    ramp_mode: false,
  };
}

function decision(over: Partial<CheckDecision>): CheckDecision {
  return {
    controlPoint: 'ingress', services: ['svc'], labels: { 'http.method': 'GET' }, addedLabels: undefined, startMs: 1_700_000_000_123.456, endMs: 1_700_000_000_124,
    accepted: true, rejectReason: 'REJECT_REASON_NONE', deniedStatus: 0, waitMs: 0, limiters: [], classifiers: [], fluxMeters: [],
    ...over,
  };
}

const INTEREST: HeaderInterest = { generation: 7, all: false, body: false, headers: ['x_user'] };

/** What the tap read before: the wire answer of the decision, as decideCheckHttp shaped it, read by answerOf. */
function viaWire(d: CheckDecision, req: CheckHTTPRequest__Output, flowId: string | undefined, interest: HeaderInterest | undefined) {
  const wire = toCheckHTTPResponse(d, req, flowId);
  if (interest !== undefined) wire.header_interest = interest;
  return answerOf(wire);
}

test('a decision reads as the wire answer of it reads, for every kind of decision', () => {
  const limiter = { kind: RATE_LIMITER_KIND, identity: { policy_name: 'p', policy_hash: 'h', component_id: 'rl' }, result: { accepted: false, waitMs: 2500.25 } };
  const cases: [string, CheckDecision, CheckHTTPRequest__Output, string | undefined, HeaderInterest | undefined][] = [
    ['accepted, nothing added', decision({}), httpRequest({}), undefined, undefined],
    ['accepted, measured, interest learned', decision({ fluxMeters: ['m'] }), httpRequest({}), 'flow-1', INTEREST],
    ['accepted, labels added to the request\'s baggage, one hidden', decision({ addedLabels: { tier: 'gold', user: 'alice' }, hiddenLabels: new Set(['user']) }), httpRequest({ baggage: 'trace=t1' }), undefined, undefined],
    ['accepted, only a hidden label added', decision({ addedLabels: { user: 'alice' }, hiddenLabels: new Set(['user']) }), httpRequest({}), 'flow-2', undefined],
    ['rate limited with a wait, measured', decision({ accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 2500.25, limiters: [limiter] }), httpRequest({}), 'flow-3', INTEREST],
    ['sampled out, no wait', decision({ accepted: false, rejectReason: 'REJECT_REASON_REGULATED', deniedStatus: 403 }), httpRequest({}), undefined, undefined],
    ['no tokens, a wait under a second', decision({ accepted: false, rejectReason: 'REJECT_REASON_NO_TOKENS', deniedStatus: 503, waitMs: 0.5 }), httpRequest({}), undefined, undefined],
    ['a reason the wire does not know', decision({ accepted: false, rejectReason: 'REJECT_REASON_SOMETHING_NEW' as CheckDecision['rejectReason'], deniedStatus: 0, waitMs: 10 }), httpRequest({}), undefined, undefined],
  ];
  for (const [what, d, req, flowId, interest] of cases) {
    const direct = answerOfDecision(d, req, flowId, interest);
    assert.deepEqual(direct, viaWire(d, req, flowId, interest), what);
    assert.deepEqual(decisionOf(direct, 5), decisionOf(viaWire(d, req, flowId, interest), 5), `${what}: the tap's decision`);
  }
});

test('decisions of a real engine (classifiers, a sampler) read as their wire answers', () => {
  const engine = new Engine();
  engine.register(new PolicyClassifier({
    identity: { policy_name: 'p', policy_hash: 'h', classifier_index: 0 },
    rules: { user: { extractor: { from: 'request.http.headers.x-user' }, telemetry: false }, tier: { extractor: { from: 'request.http.headers.x-tier' } } },
  }), { control_point: 'ingress' });
  engine.register({
    kind: SAMPLER_KIND, identity: { policy_name: 'p', policy_hash: 'h', component_id: 'no-mallory' },
    decide: (labels) => ({ accepted: labels.user !== 'mallory', waitMs: 0 }),
  }, { control_point: 'ingress' });
  const requests: Record<string, string>[] = [{ 'x-user': 'alice', 'x-tier': 'gold', baggage: 'a=1' }, { 'x-user': 'mallory' }, {}];
  for (const headers of requests) {
    const req = httpRequest(headers);
    const d = engine.check({ controlPoint: 'ingress', labels: httpFlowLabels(req.request), services: [], type: 'http', http: req });
    assert.ok(!(d instanceof Promise));
    assert.deepEqual(answerOfDecision(d, req, undefined, undefined), viaWire(d, req, undefined, undefined), JSON.stringify(headers));
  }
});
