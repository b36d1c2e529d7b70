import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { httpFlavor } from './http-flavor.js';
import { httpFlowLabels } from './http-labels.js';
import { parseBaggage } from './baggage.js';

test('labels of an HTTP request', () => {
  const labels = httpFlowLabels({
    method: 'POST', path: '/api/v1/items?x=1&y=2', host: 'shop.example', scheme: 'https', size: 42, protocol: 'HTTP/1.1',
    headers: { 'Content-Type': 'application/json', 'X-User-Id': 'u7', ':authority': 'shop.example', 'user-agent': 'curl/8' },
    body: '', truncated_body: false,
  });
  assert.deepEqual(labels, {
    'http.request.header.content_type': 'application/json',
    'http.request.header.x_user_id': 'u7',
    'http.request.header.user_agent': 'curl/8',
    'http.method': 'POST',
    'http.target': '/api/v1/items?x=1&y=2',
    'http.host': 'shop.example',
    'http.scheme': 'https',
    'http.flavor': '1.1',
    'http.request_content_length': '42',
  });
});

test('host falls back to :authority, then the host header; unknown size is left out', () => {
  assert.equal(httpFlowLabels({ headers: { ':authority': 'a.example' }, size: -1 })['http.host'], 'a.example');
  const l = httpFlowLabels({ headers: { host: 'b.example' }, size: -1 });
  assert.equal(l['http.host'], 'b.example');
  assert.equal('http.request_content_length' in l, false);
  assert.deepEqual(httpFlowLabels(undefined), {});
});

test('http.flavor from the protocol', () => {
  assert.equal(httpFlavor('HTTP/1.0'), '1.0');
  assert.equal(httpFlavor('HTTP/1.1'), '1.1');
  assert.equal(httpFlavor('HTTP/2'), '2.0');
  assert.equal(httpFlavor('HTTP/2.0'), '2.0');
  assert.equal(httpFlavor('http/3'), '3.0');
  assert.equal(httpFlavor('SPDY/3'), undefined);
  assert.equal('http.flavor' in httpFlowLabels({ protocol: 'gopher' }), false);
});

test('baggage entries become labels, URL-unescaped, properties dropped', () => {
  const labels = httpFlowLabels({
    method: 'GET',
    headers: { baggage: 'user_tier=gold, region = eu%2Dwest ;prop=1,name=J%C3%BCrgen%20K,empty=,http.method=SPOOF' },
  });
  assert.equal(labels.user_tier, 'gold');
  assert.equal(labels.region, 'eu-west');
  assert.equal(labels.name, 'Jürgen K');
  assert.equal(labels.empty, '');
  assert.equal(labels['http.method'], 'GET', 'baggage does not override request attributes');
  assert.equal(labels['http.request.header.baggage'].startsWith('user_tier'), true);
});

test('malformed baggage entries are skipped, never thrown', () => {
  const out: Record<string, string> = {};
  parseBaggage('ok=1,noequals,=novalue,bad key=2,bad=%E0%A4%A,also_ok=%41;p, ,', out);
  assert.deepEqual(out, { ok: '1', also_ok: 'A' });
  const proto: Record<string, string> = {};
  parseBaggage('__proto__=x', proto);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.equal(Object.prototype.hasOwnProperty.call(proto, '__proto__'), true);
});

test('baggage parsing is bounded and total on arbitrary input', () => {
  const many: Record<string, string> = {};
  parseBaggage(Array.from({ length: 500 }, (_, i) => `k${i}=v`).join(','), many);
  assert.equal(Object.keys(many).length, 180);
  fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => {
    const into: Record<string, string> = {};
    parseBaggage(s, into);
    for (const v of Object.values(into)) assert.equal(typeof v, 'string');
  }), { numRuns: 300 });
});

test('a gRPC call gets grpc.service and grpc.method from its path, http.flavor 2.0', () => {
  const labels = httpFlowLabels({
    method: 'POST', path: '/shop.v1.Checkout/PlaceOrder', host: 'shop:50051', scheme: 'http', size: -1, protocol: 'HTTP/2.0',
    headers: { 'Content-Type': 'application/grpc+proto', te: 'trailers' }, body: '', truncated_body: false,
  });
  assert.equal(labels['http.target'], '/shop.v1.Checkout/PlaceOrder');
  assert.equal(labels['grpc.service'], 'shop.v1.Checkout');
  assert.equal(labels['grpc.method'], 'PlaceOrder');
  assert.equal(labels['http.flavor'], '2.0');
});

test('the gRPC labels need a gRPC content type and a /Service/Method path; they win over baggage', () => {
  const of = (contentType: string | undefined, path: string, baggage?: string) => httpFlowLabels({
    method: 'POST', path, protocol: 'HTTP/2.0',
    headers: { ...(contentType === undefined ? {} : { 'content-type': contentType }), ...(baggage === undefined ? {} : { baggage }) },
  });
  assert.equal(of('application/json', '/shop.Checkout/Place')['grpc.method'], undefined, 'not gRPC: no gRPC labels');
  assert.equal(of('application/grpc-web', '/shop.Checkout/Place')['grpc.method'], undefined, 'gRPC-Web is not gRPC');
  assert.equal(of(undefined, '/shop.Checkout/Place')['grpc.service'], undefined);
  assert.equal(of('application/grpc', '/shop.Checkout/Place/extra')['grpc.service'], undefined, 'three segments');
  assert.equal(of('application/grpc', '/shop.Checkout/Place?x=1')['grpc.method'], undefined, 'a query');
  assert.equal(of('application/grpc', '/shop.Checkout/')['grpc.method'], undefined, 'an empty method');
  assert.equal(of('application/grpc; charset=utf-8', '/S/M')['grpc.method'], 'M');
  assert.equal(of('application/grpc', '/a.S/M', 'grpc.method=Forged,grpc.service=x')['grpc.method'], 'M');
  assert.equal(of('application/grpc', '/a.S/M', 'grpc.method=Forged')['grpc.service'], 'a.S');
  assert.equal(of('text/plain', '/a.S/M', 'grpc.method=FromBaggage')['grpc.method'], 'FromBaggage', 'baggage may set it on a non-gRPC request');
});
