import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { compilePolicy } from '@sluice/policies';
import { MAX_ADMISSION_BYTES } from './admission-review.js';
import { admissionRoute } from './admission-route.js';
import { PolicyValidationWebhook, type PolicyVerdict } from './policy-validation.js';

type Obj = Record<string, unknown>;

/** The policy compiler's verdict, as the controller's check gives it. */
function check(name: string, spec: unknown): PolicyVerdict {
  try {
    return { ok: true, ignored: compilePolicy(name, spec).ignored };
  } catch (err) {
    return { ok: false, problems: (err as { problems: { path: string; message: string }[] }).problems };
  }
}

const rateLimiter = (over: Obj = {}): Obj => ({
  circuit: {
    evaluation_interval: '1s',
    components: [{
      flow_control: {
        rate_limiter: {
          in_ports: { bucket_capacity: { constant_signal: { value: 20 } }, fill_amount: { constant_signal: { value: 10 } } },
          parameters: { label_key: 'user', interval: '1s' },
          selectors: [{ control_point: 'ingress' }],
          ...over,
        },
      },
    }],
  },
});

const RL = 'spec.circuit.components[0].flow_control.rate_limiter';

function review(spec: unknown, over: Obj = {}): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'u-7', kind: { group: 'sluice.dev', version: 'v1alpha1', kind: 'Policy' }, resource: { group: 'sluice.dev', version: 'v1alpha1', resource: 'policies' },
      name: 'limits', namespace: 'default', operation: 'CREATE',
      object: { apiVersion: 'sluice.dev/v1alpha1', kind: 'Policy', metadata: { name: 'limits', namespace: 'default' }, spec },
      ...over,
    },
  });
}

interface Response { uid: string; allowed: boolean; status?: { code: number; reason: string; message: string }; warnings?: string[] }
const responseOf = (body: unknown): Response => (body as { response: Response }).response;

test('a policy that compiles is allowed; inert parts come back as warnings', () => {
  const w = new PolicyValidationWebhook({ check });
  const ok = w.review(review(rateLimiter()));
  assert.deepEqual([ok.status, ok.result, ok.reason], [200, 'allowed', 'compiles']);
  assert.deepEqual(responseOf(ok.body), { uid: 'u-7', allowed: true });
  const inert = rateLimiter() as { circuit: Obj; resources?: Obj };
  inert.resources = { infra_meters: { kubeletstats: {} } };
  const a = w.review(review(inert, { operation: 'UPDATE', oldObject: {} }));
  assert.equal(a.reason, 'ignored_parts');
  assert.deepEqual(responseOf(a.body).warnings, ['spec.resources.infra_meters: accepted and ignored by the controller']);
});

test('what the compiler refuses is denied with the JSON path of every problem', () => {
  const w = new PolicyValidationWebhook({ check });
  const add = (lhs: string, out: string): Obj => ({
    arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: lhs }, rhs: { constant_signal: { value: 1 } } }, out_ports: { output: { signal_name: out } } },
  });
  const cases: [unknown, RegExp][] = [
    [rateLimiter({ in_ports: { bucket_capacity: { constant_signal: { value: 20 } }, fill_amount: { signal_name: 'NOPE' } } }), new RegExp(`${RL.replace(/[[\].]/g, '\\$&')}\\.in_ports\\.fill_amount\\.signal_name: signal "NOPE" is read but no component writes it`)],
    [{ circuit: { components: [add('B', 'A'), add('A', 'B')] } }, /spec\.circuit\.components\[0\]\.arithmetic_combinator: the signals form a cycle/],
    [rateLimiter({ selectors: [{ control_point: 'a', label_matcher: { expression: { label_matches: { label: 'a', regex: '(' } } } }] }), /selectors\[0\]\.label_matcher\.expression\.label_matches\.regex: .*does not compile/],
    [undefined, /^policy "limits" is invalid: spec: a policy spec must be an object/],
  ];
  for (const [spec, message] of cases) {
    const a = w.review(review(spec));
    assert.deepEqual([a.status, a.result], [200, 'denied']);
    const r = responseOf(a.body);
    assert.equal(r.uid, 'u-7');
    assert.equal(r.allowed, false);
    assert.equal(r.status?.code, 422);
    assert.equal(r.status?.reason, 'Invalid');
    assert.match(r.status?.message ?? '', message);
  }
  // Several problems: each listed with its path.
  const two = rateLimiter({ in_ports: { bucket_capacity: { constant_signal: { value: -1 } }, fill_amount: { signal_name: 'NOPE' } } });
  const m = responseOf(w.review(review(two)).body).status?.message ?? '';
  assert.match(m, /bucket_capacity\.constant_signal\.value: -1 is below the minimum 0; .*fill_amount\.signal_name: /);
});

test('other kinds, subresources and operations are allowed untouched; a review without the object is denied', async () => {
  const registry = new Registry();
  let calls = 0;
  const w = new PolicyValidationWebhook({ check: (n, s) => { calls++; return check(n, s); }, registry });
  const bad = { circuit: { components: 'x' } };
  assert.equal(w.review(review(bad, { kind: { group: 'apps', version: 'v1', kind: 'Deployment' } })).reason, 'not_a_policy');
  assert.equal(w.review(review(bad, { subResource: 'status' })).reason, 'not_a_policy');
  assert.equal(w.review(review(bad, { operation: 'DELETE', object: null })).reason, 'not_create_or_update');
  assert.equal(calls, 0);
  const none = w.review(review(bad, { object: null }));
  assert.equal(none.result, 'denied');
  assert.match(responseOf(none.body).status?.message ?? '', /^request\.object: /);
  // A check that throws is a denial at spec, never a crash.
  const throwing = new PolicyValidationWebhook({ check: () => { throw new Error('boom'); } });
  assert.match(responseOf(throwing.review(review(rateLimiter())).body).status?.message ?? '', /^policy "limits" is invalid: spec: the policy could not be checked: boom/);
  assert.match(await registry.metrics(), /policy_admission_reviews_total\{result="skipped",reason="not_a_policy"\} 2/);
});

test('bodies that are not a usable review are a 400 (413 past the bound) with a Status naming the problem', () => {
  const w = new PolicyValidationWebhook({ check });
  const cases: [string | undefined, string, number][] = [
    [undefined, 'empty', 400],
    ['{"apiVersion":', 'malformed_json', 400],
    ['[1]', 'not_a_review', 400],
    [JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'x' } }), 'not_a_review', 400],
    [JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: '' } }), 'no_request', 400],
    ['x'.repeat(MAX_ADMISSION_BYTES + 1), 'too_large', 413],
  ];
  for (const [body, reason, status] of cases) {
    const a = w.review(body);
    assert.deepEqual([a.status, a.result, a.reason], [status, 'invalid', reason]);
    assert.equal((a.body as Obj).kind, 'Status');
    assert.equal((a.body as Obj).code, status);
  }
});

test('over HTTP: a body past the bound is a 413 answered at once; the server keeps serving', async (t) => {
  const w = new PolicyValidationWebhook({ check });
  const route = admissionRoute(w);
  const server = http.createServer((req, res) => route(req, res, (err) => { res.statusCode = 500; res.end(String(err)); }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const huge = await fetch(url, { method: 'POST', body: Buffer.alloc(MAX_ADMISSION_BYTES + 10, 0x20) });
  assert.equal(huge.status, 413);
  assert.equal(huge.headers.get('connection'), 'close');
  assert.match(((await huge.json()) as { message: string }).message, /limit 4194304/);
  const bad = await fetch(url, { method: 'POST', body: '{' });
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { message: string }).message, /not JSON/);
  const good = await fetch(url, { method: 'POST', body: review(rateLimiter()) });
  assert.equal(good.status, 200);
  assert.deepEqual(((await good.json()) as { response: Response }).response, { uid: 'u-7', allowed: true });
});

test('the Policy\'s top-level dynamicConfig is handed to the check beside the spec', () => {
  const seen: unknown[] = [];
  const w = new PolicyValidationWebhook({
    check: (n, s, dynamicConfig) => {
      seen.push(dynamicConfig);
      return dynamicConfig === undefined ? check(n, s) : { ok: false, problems: [{ path: 'dynamicConfig.nope', message: 'unknown key' }] };
    },
  });
  const withDynamic = JSON.parse(review(rateLimiter())) as { request: { object: Obj } };
  withDynamic.request.object.dynamicConfig = { nope: 1 };
  const denied = w.review(JSON.stringify(withDynamic));
  assert.equal(responseOf(denied.body).allowed, false);
  assert.match(responseOf(denied.body).status?.message ?? '', /dynamicConfig\.nope: unknown key/);
  assert.equal(responseOf(w.review(review(rateLimiter())).body).allowed, true);
  assert.deepEqual(seen, [{ nope: 1 }, undefined]);
});
