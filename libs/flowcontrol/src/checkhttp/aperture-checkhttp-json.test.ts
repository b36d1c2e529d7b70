import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromProto3Json, serviceClient, toProto3Json, type ApertureCheckHTTPRequest__Output, type ApertureCheckHTTPResponse } from '@sluice/proto';
import { readApertureCheckHttpRequest, writeApertureCheckHttpResponse } from './aperture-checkhttp-json.js';

const method = serviceClient('apertureFlowControlHttp').service.CheckHTTP;

/** The generic path: proto3 JSON checked and converted, then through the method's own (de)serializers. */
function genericRequest(body: unknown): ApertureCheckHTTPRequest__Output {
  const message = fromProto3Json('aperture.flowcontrol.checkhttp.v1.CheckHTTPRequest', body);
  return method.requestDeserialize(method.requestSerialize(message)) as ApertureCheckHTTPRequest__Output;
}

function genericResponse(r: ApertureCheckHTTPResponse): unknown {
  return toProto3Json('aperture.flowcontrol.checkhttp.v1.CheckHTTPResponse', method.responseDeserialize(method.responseSerialize(r)));
}

/** A small deterministic generator (no flakes; the seed names a failing case). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

function randomAddress(r: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r() < 0.8) out.address = pick(r, ['10.1.2.3', '::1', '', 'host.example']);
  if (r() < 0.8) out.port = pick(r, [0, 80, 8080, 65535, 4294967295, '443', '0', '0012']);
  if (r() < 0.5) out.protocol = pick(r, ['TCP', 'UDP', 0, 1]);
  return out;
}

function randomBody(r: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r() < 0.9) out[pick(r, ['control_point', 'controlPoint'])] = pick(r, ['ingress', 'egress', '', 'cp/with "quotes"']);
  if (r() < 0.8) out.source = randomAddress(r);
  if (r() < 0.8) out.destination = randomAddress(r);
  if (r() < 0.9) {
    const req: Record<string, unknown> = {};
    for (const k of ['method', 'path', 'host', 'scheme', 'protocol', 'body']) if (r() < 0.7) req[k] = pick(r, ['GET', '/a?b=1', 'é ☃', '', 'HTTP/1.1']);
    if (r() < 0.7) req.size = pick(r, [0, -1, 12, '12', '-1', '9007199254740991', -0, '-0']);
    if (r() < 0.7) req.headers = Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, (_, i) => [pick(r, ['x-user', 'baggage', 'Cookie', `h${i}`]), pick(r, ['u1', 'a=b,c=d', ''])]));
    out.request = req;
  }
  return out;
}

test('the fast reader gives what the generic path gives, for every shape gateways send', () => {
  const r = rng(7);
  for (let i = 0; i < 2000; i++) {
    const body = randomBody(r);
    const fast = readApertureCheckHttpRequest(body);
    assert.notEqual(fast, undefined, `case ${i}: ${JSON.stringify(body)} is a gateway's shape`);
    assert.deepEqual(fast, genericRequest(body), `case ${i}: ${JSON.stringify(body)}`);
  }
});

test('anything else is left to the generic path (which refuses bad input naming the field)', () => {
  const base = { control_point: 'ingress', source: { address: '1.2.3.4', port: 1 }, request: { method: 'GET', headers: { a: 'b' } } };
  const cases: unknown[] = [
    null, [], 'x', 5,
    { ...base, control_pont: 'x' },
    { ...base, control_point: 5 },
    { ...base, control_point: null },
    { ...base, source: { port: -1 } },
    { ...base, source: { port: 4294967296 } },
    { ...base, source: { port: 1.5 } },
    { ...base, source: { port: 'abc' } },
    { ...base, source: { protocol: 'SCTP' } },
    { ...base, source: [] },
    { ...base, source: { address: 'a', extra: 1 } },
    { ...base, request: { method: 7 } },
    { ...base, request: { size: 'abc' } },
    { ...base, request: { size: 1.5 } },
    { ...base, request: { size: '99999999999999999999' } },
    { ...base, request: { headers: [] } },
    { ...base, request: { headers: { a: 1 } } },
    { ...base, request: { truncated_body: false } },
    { ...base, request: null },
  ];
  for (const body of cases) assert.equal(readApertureCheckHttpRequest(body), undefined, JSON.stringify(body));
  // The same inputs, where the generic path refuses them, are refused by it with a path.
  assert.throws(() => genericRequest({ ...base, request: { method: 7 } }), /request\.method/);
});

test('the fast writer writes what the generic converters write, member for member', () => {
  const metadata = { fields: { 'aperture.check_response': { stringValue: 'CgRpbmdyZXNz' } } };
  const answers: ApertureCheckHTTPResponse[] = [
    { status: { code: 0 }, ok_response: { headers: {} }, dynamic_metadata: metadata },
    { status: { code: 0 }, ok_response: { headers: { baggage: 'tier=gold', 'x-"q"': 'é\n' } }, dynamic_metadata: metadata },
    { status: { code: 0 }, ok_response: { headers: {} } },
    { status: { code: 8, message: 'rejected with HTTP status 429' }, denied_response: { status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' }, body: '{"x":1}' }, dynamic_metadata: metadata },
    { status: { code: 14, message: 'rejected with HTTP status 503' }, denied_response: { status: 503, headers: {}, body: '' }, dynamic_metadata: metadata },
    { status: { code: 7, message: 'm' }, denied_response: { status: 403, headers: {}, body: 'no' } },
  ];
  for (const a of answers) {
    const text = writeApertureCheckHttpResponse(a);
    assert.notEqual(text, undefined, JSON.stringify(a));
    assert.deepEqual(JSON.parse(text as string), genericResponse(a), JSON.stringify(a));
  }
  assert.equal(writeApertureCheckHttpResponse({ status: { code: 0 } }), undefined, 'neither ok nor denied: generic');
  assert.equal(writeApertureCheckHttpResponse({ status: { code: 0 }, ok_response: { headers: {} }, dynamic_metadata: { fields: { a: { numberValue: 1 } } } }), undefined);
});
