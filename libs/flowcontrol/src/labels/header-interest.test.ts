import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckHTTPRequest__Output } from '@sluice/proto';
import type { CheckHTTPAnswer } from '../wire/check-response-wire.js';
import { decideCheckHttp } from '../checkhttp/checkhttp-decide.js';
import { PolicyClassifier } from '../classifiers/classifier.js';
import type { FlowObserver, FlowSink } from '../check/flow-observer.js';
import { FluxMeterComponent } from '../flux-meters/flux-meter.js';
import { Engine } from '../check/engine.js';
import { HeaderInterests, readsOf, type FlowReads } from './header-interest.js';
import { LocalTokenBucketStore } from '@sluice/tokenbucket';
import { Sampler } from '../limiters/sampler.js';
import type { FlowComponent, Limiter, LimiterKind } from '../check/component.js';
import { RATE_LIMITER_KIND, RateLimiter } from '../limiters/rate-limiter.js';
import { TEST_SCHEDULER_KIND } from '../testing/test-support.js';

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'c' };

function limiter(labelKey: string, capacity = 100): RateLimiter {
  return new RateLimiter({ identity, labelKey, store: new LocalTokenBucketStore({ capacity, fillAmount: 1, intervalMs: 3_600_000, continuousFill: false }) });
}

function summary(r: FlowReads): { all: boolean; headers: string[]; body: boolean; baggage: boolean } {
  return { all: r.all, headers: [...r.headers].sort(), body: r.body, baggage: r.baggage };
}

test('a rate limiter reads its label key, and its tokens label key only when costs come from request labels; a header label names its header in label form', () => {
  const store = new LocalTokenBucketStore({ capacity: 1, fillAmount: 1, intervalMs: 1000, continuousFill: true });
  const rl = new RateLimiter({ identity, labelKey: 'http.request.header.X-User', tokensLabelKey: 'http.request.header.x_cost', store });
  assert.deepEqual(summary(readsOf(rl, undefined)), { all: false, headers: ['x_user'], body: false, baggage: true });
  const fromRequest = new RateLimiter({ identity, tokensLabelKey: 'http.request.header.x_cost', tokensFromRequestLabels: true, store });
  assert.deepEqual(summary(readsOf(fromRequest, undefined)), { all: false, headers: ['x_cost'], body: false, baggage: true });
  assert.deepEqual(summary(readsOf(new RateLimiter({ identity, store }), undefined)), { all: false, headers: [], body: false, baggage: false });
});

test('labels of the request fields need no header; a sampler reads its label key', () => {
  assert.deepEqual(summary(readsOf(new Sampler({ identity, labelKey: 'http.method' }), { match_labels: { 'http.target': '/x' } })),
    { all: false, headers: [], body: false, baggage: false });
  assert.deepEqual(summary(readsOf(new Sampler({ identity }), undefined)), { all: false, headers: [], body: false, baggage: false });
});

test('a label filter reads every label it names: match_labels, match_expressions, nested expressions', () => {
  const reads = readsOf(new FluxMeterComponent({ name: 'fm', policy_name: 'p' }), {
    match_labels: { 'http.request.header.a': '1' },
    match_expressions: [{ key: 'http.request.header.b', operator: 'Exists' }],
    expression: { all: { of: [{ not: { label_equals: { label: 'http.request.header.c', value: 'x' } } }, { any: { of: [{ label_matches: { label: 'tenant', regex: 'a.*' } }, { label_exists: { label: 'http.request.header.d' } }] } }] } },
  });
  assert.deepEqual(summary(reads), { all: false, headers: ['a', 'b', 'c', 'd'], body: false, baggage: true });
});

test('a filter of unknown shape, or an unknown component, reads everything', () => {
  const fm = new FluxMeterComponent({ name: 'fm', policy_name: 'p' });
  assert.equal(readsOf(fm, { expression: { label_near: { label: 'x' } } }).all, true);
  assert.equal(readsOf(fm, { match_expressions: [{ operator: 'Exists' }] }).all, true);
  assert.equal(readsOf(fm, 'not an object').all, true);
  assert.equal(readsOf(fm, { other: {} }).all, true);
  const custom: Limiter = { kind: RATE_LIMITER_KIND, identity, decide: () => ({ accepted: true, waitMs: 0 }) };
  assert.equal(readsOf(custom, undefined).all, true, 'a limiter of the rate limiter\'s kind that is no RateLimiter');
  // A component of no known kind is refused at registration (never filed under a default group).
  const unknown = { kind: 'scheduler', identity, decide: () => ({ accepted: true, waitMs: 0 }) } as unknown as FlowComponent;
  assert.throws(() => new Engine().register(unknown, { control_point: 'cp' }), /a component of unknown kind "scheduler"/);
});

test('a limiter reads what its kind says', () => {
  const kind: LimiterKind = { ...TEST_SCHEDULER_KIND, reads: (_l, into) => { into.headers.add('tier'); } };
  const limiter: Limiter = { kind, identity, decide: () => ({ accepted: true, waitMs: 0 }) };
  assert.deepEqual(summary(readsOf(limiter, undefined)), { all: false, headers: ['tier'], body: false, baggage: false });
});

test('a classifier reads the headers and the body it extracts from, and baggage (its answer rewrites it)', () => {
  const c = new PolicyClassifier({
    identity: { policy_name: 'p', policy_hash: 'h', classifier_index: 0 },
    rules: {
      agent: { extractor: { from: 'request.http.headers.User-Agent' } },
      method: { extractor: { from: 'request.http.method' } },
      user: { extractor: { json: { from: 'request.http.body', pointer: '/user' } } },
    },
  });
  assert.deepEqual(summary(readsOf(c, undefined)), { all: false, headers: ['user_agent'], body: true, baggage: true });
});

test('a classifier reading request.http.bearer reads the authorization header; address and path templates read no header', () => {
  const c = new PolicyClassifier({
    identity: { policy_name: 'p', policy_hash: 'h', classifier_index: 0 },
    rules: {
      email: { extractor: { jwt: { from: 'request.http.bearer', json_pointer: '/email' } } },
      peer: { extractor: { address: { from: 'source.address' } } },
      route: { extractor: { path_templates: { template_values: { '/a/*': 'a' } } } },
    },
  });
  assert.deepEqual(summary(readsOf(c, undefined)), { all: false, headers: ['authorization'], body: false, baggage: true });
});

test('the engine answers the union of a control point, a new generation for each change and the same one otherwise', () => {
  const e = new Engine();
  const empty = e.headerInterest('ingress');
  assert.deepEqual({ all: empty.all, headers: empty.headers, body: empty.body }, { all: false, headers: [], body: false });
  assert.ok(empty.generation > 0);
  assert.equal(e.headerInterest('other').generation, empty.generation, 'control points nothing reads share the empty interest');

  const stop = e.register(limiter('http.request.header.x_user'), { control_point: 'ingress' });
  const one = e.headerInterest('ingress');
  assert.deepEqual(one.headers, ['baggage', 'x_user']);
  assert.notEqual(one.generation, empty.generation);
  assert.equal(e.headerInterest('ingress'), one, 'unchanged: the same answer');
  assert.equal(e.headerInterest('egress'), empty, 'another control point is not affected');

  const stop2 = e.register(limiter('http.request.header.x_user'), { control_point: 'ingress' });
  assert.equal(e.headerInterest('ingress').generation, one.generation, 'a registration that adds nothing keeps the generation');
  const stop3 = e.register(limiter('http.request.header.tenant'), { control_point: 'ingress', label_matcher: { match_labels: { 'http.request.header.zone': 'a' } } });
  const two = e.headerInterest('ingress');
  assert.deepEqual(two.headers, ['baggage', 'tenant', 'x_user', 'zone']);
  assert.ok(two.generation > one.generation);
  stop3();
  stop2();
  const three = e.headerInterest('ingress');
  assert.deepEqual(three.headers, ['baggage', 'x_user']);
  assert.ok(three.generation > two.generation, 'a generation is never reused');
  stop();
  const none = e.headerInterest('ingress');
  assert.deepEqual(none.headers, []);
  assert.ok(none.generation > three.generation, 'back to nothing: still a newer generation');
  assert.equal(e.headerInterest('egress'), none, 'the empty interest is shared');
});

/** A watching observer such as the preview registry. */
function watcher(): FlowObserver & { watches(cp: string): boolean; onWatchChange(l: (cp: string) => void): () => void; set(cp: string, on: boolean): void } {
  const watched = new Set<string>();
  let listeners: ((cp: string) => void)[] = [];
  const sink: FlowSink = { observe: () => undefined };
  return {
    sinkFor: (cp) => (watched.has(cp) ? sink : undefined),
    watches: (cp) => watched.has(cp),
    onWatchChange(l) {
      listeners.push(l);
      return () => { listeners = listeners.filter((x) => x !== l); };
    },
    set(cp, on) {
      if (on) watched.add(cp);
      else watched.delete(cp);
      for (const l of listeners) l(cp);
    },
  };
}

test('while an observer watches a control point (a preview), its interest is everything; then back', () => {
  const e = new Engine();
  e.register(limiter('http.request.header.x_user'), { control_point: 'ingress' });
  const before = e.headerInterest('ingress');
  const w = watcher();
  const stop = e.addObserver(w);
  assert.equal(e.headerInterest('ingress'), before, 'a watcher that watches nothing here changes nothing');
  w.set('ingress', true);
  const during = e.headerInterest('ingress');
  assert.equal(during.all, true);
  assert.equal(during.body, true);
  assert.ok(during.generation > before.generation);
  assert.equal(e.headerInterest('elsewhere').all, false);
  w.set('ingress', false);
  const after = e.headerInterest('ingress');
  assert.equal(after.all, false);
  assert.deepEqual(after.headers, before.headers);
  assert.ok(after.generation > during.generation);
  w.set('ingress', true);
  assert.equal(e.headerInterest('ingress').all, true);
  stop();
  assert.equal(e.headerInterest('ingress').all, false, 'an observer removed no longer counts');
});

test('HeaderInterests: generations start from the clock, so a restarted agent hands out newer ones', () => {
  const a = new HeaderInterests(() => 1_000);
  const b = new HeaderInterests(() => 2_000);
  assert.ok(b.of('x').generation > a.of('x').generation + 100);
});

function httpCheck(headers: Record<string, string>, generation?: number): CheckHTTPRequest__Output {
  const req = {
    source: { protocol: 'TCP', address: '10.0.0.1', port: 1 },
    destination: { protocol: 'TCP', address: '10.0.0.2', port: 80 },
    control_point: 'ingress',
    request: { method: 'GET', headers, path: '/', host: 'h', scheme: 'http', size: -1, protocol: 'HTTP/1.1', body: '', truncated_body: false },
    ramp_mode: false,
  } as CheckHTTPRequest__Output;
  if (generation !== undefined) req.interest_generation = generation;
  return req;
}

function decided(r: CheckHTTPAnswer | Promise<CheckHTTPAnswer>): CheckHTTPAnswer {
  assert.ok(!(r instanceof Promise));
  return r;
}

test('CheckHTTP: a caller without interest_generation gets no interest; with 0 it learns it; with the current one nothing more', () => {
  const engine = new Engine();
  engine.register(limiter('http.request.header.x_user'), { control_point: 'ingress' });
  const deps = { engine, discovery: undefined };
  const legacy = decided(decideCheckHttp(deps, httpCheck({ 'x-user': 'a' })));
  assert.equal(legacy.header_interest, undefined);
  assert.ok(legacy.ok_response !== undefined);

  const first = decided(decideCheckHttp(deps, httpCheck({ 'x-user': 'a' }, 0)));
  assert.ok(first.ok_response !== undefined, 'unfiltered: decided');
  const interest = first.header_interest;
  assert.ok(interest !== undefined && interest !== null);
  assert.deepEqual(interest.headers, ['baggage', 'x_user']);

  const steady = decided(decideCheckHttp(deps, httpCheck({ 'x-user': 'a' }, Number(interest.generation))));
  assert.equal(steady.header_interest, undefined, 'the caller has the current interest: not repeated');
  assert.ok(steady.ok_response !== undefined);
});

test('CheckHTTP: a request filtered by a stale generation is not decided (resend_unfiltered, with the current interest)', () => {
  const engine = new Engine();
  engine.register(limiter('http.request.header.x_user', 1), { control_point: 'ingress' });
  const deps = { engine, discovery: undefined };
  const old = Number(engine.headerInterest('ingress').generation);
  engine.register(limiter('http.request.header.tenant', 1), { control_point: 'ingress' });
  const r = decided(decideCheckHttp(deps, httpCheck({ 'x-user': 'a' }, old)));
  assert.equal(r.resend_unfiltered, true);
  assert.equal(r.ok_response, undefined);
  assert.equal(r.denied_response, undefined);
  assert.deepEqual(r.header_interest?.headers, ['baggage', 'tenant', 'x_user']);
  // Not decided: the buckets of x-user a are untouched, so the unfiltered ask is accepted and the next one denied.
  assert.ok(decided(decideCheckHttp(deps, httpCheck({ 'x-user': 'a', tenant: 't' }, 0))).ok_response !== undefined);
  assert.ok(decided(decideCheckHttp(deps, httpCheck({ 'x-user': 'a', tenant: 't' }, 0))).denied_response !== undefined);
});

test('CheckHTTP: a malformed interest_generation is refused', () => {
  const deps = { engine: new Engine(), discovery: undefined };
  assert.throws(() => decideCheckHttp(deps, httpCheck({}, -1)), { code: 'SLUICE_ERR_INVALID_ARGUMENT' });
  assert.throws(() => decideCheckHttp(deps, httpCheck({}, 1.5)), { code: 'SLUICE_ERR_INVALID_ARGUMENT' });
});

test('a control point whose components read only the request fields needs no header, and keeps its generation', () => {
  const e = new Engine();
  e.register(limiter('http.method'), { control_point: 'ingress' });
  const a = e.headerInterest('ingress');
  assert.deepEqual({ all: a.all, headers: a.headers, body: a.body }, { all: false, headers: [], body: false });
  assert.equal(e.headerInterest('ingress'), a);
  const w = watcher();
  e.addObserver(w);
  w.set('ingress', true);
  const during = e.headerInterest('ingress');
  w.set('ingress', false);
  const after = e.headerInterest('ingress');
  assert.ok(after.generation > during.generation && during.generation > a.generation);
  assert.deepEqual(after.headers, []);
  assert.equal(e.headerInterest('ingress'), after);
});

test('a component reading grpc.service or grpc.method needs the content-type header (and baggage)', () => {
  assert.deepEqual(summary(readsOf(limiter('grpc.method'), undefined)), { all: false, headers: ['content_type'], body: false, baggage: true });
  assert.deepEqual(summary(readsOf(new Sampler({ identity }), { match_labels: { 'grpc.service': 'shop.Checkout' } })),
    { all: false, headers: ['content_type'], body: false, baggage: true });
});
