import assert from 'node:assert/strict';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { test } from 'node:test';
import { h2ClientHeaders, h2UpstreamHeaders, type H2Call } from './forward.js';
import { h2RequestOf } from './h2-request.js';

const stream = { session: { socket: { remoteAddress: '::ffff:10.0.0.7', remotePort: 4000, localAddress: '::ffff:10.0.0.1', localPort: 8081 } } } as unknown as ServerHttp2Stream;

function call(headers: Record<string, string | string[]>, deadline?: number): H2Call {
  const raw = Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v.flatMap((x) => [k, x]) : [k, v]));
  return { stream, head: h2RequestOf(stream, headers, raw), headers, grpc: true, ended: false, deadline };
}

test('the head of an HTTP/2 request as the check reads it: no pseudo-headers, :authority as host, HTTP 2.0', () => {
  const head = h2RequestOf(stream, { ':method': 'POST', ':path': '/a.B/C', ':authority': 'api:50051', ':scheme': 'http', 'content-type': 'application/grpc' },
    [':method', 'POST', ':path', '/a.B/C', ':authority', 'api:50051', ':scheme', 'http', 'content-type', 'application/grpc']);
  assert.equal(head.method, 'POST');
  assert.equal(head.url, '/a.B/C');
  assert.equal(head.httpVersion, '2.0');
  assert.equal(head.headers.host, 'api:50051');
  assert.deepEqual(head.rawHeaders, ['content-type', 'application/grpc']);
  assert.equal(head.socket.remotePort, 4000);
  const noRaw = h2RequestOf(stream, { ':method': 'GET', ':path': '/', 'x-a': ['1', '2'] });
  assert.deepEqual(noRaw.rawHeaders, ['x-a', '1', 'x-a', '2'], 'from the parsed headers when the raw ones are not given');
});

test('the request to the workload: pseudo-headers rebuilt, connection-specific fields dropped, te: trailers kept, X-Forwarded-*, what is left of the deadline, the agent\'s headers win', () => {
  const c = call({
    ':method': 'POST', ':path': '/shop.Checkout/Place', ':authority': 'shop:50051', ':scheme': 'http',
    'content-type': 'application/grpc', te: 'trailers', 'keep-alive': '5', 'x-user': 'u1', baggage: 'a=1', 'x-forwarded-for': '1.2.3.4',
  }, 10_000 + 1234.5);
  const h = h2UpstreamHeaders(c, [{ key: 'Baggage', value: 'tier=gold' }], 10_000);
  assert.deepEqual(h, {
    ':method': 'POST', ':path': '/shop.Checkout/Place', ':scheme': 'http', ':authority': 'shop:50051',
    'content-type': 'application/grpc', te: 'trailers', 'x-user': 'u1', baggage: 'tier=gold',
    'x-forwarded-for': '1.2.3.4, 10.0.0.7', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'shop:50051', 'grpc-timeout': '1235m',
  });
  const plain = h2UpstreamHeaders(call({ ':method': 'GET', ':path': '/x', ':authority': 'a', te: 'gzip' }), []);
  assert.equal(plain.te, undefined, 'a TE other than trailers is not passed on');
  assert.equal(plain['grpc-timeout'], undefined);
  assert.equal(plain['x-forwarded-for'], '10.0.0.7');
});

test('the workload\'s head and trailers as the client gets them', () => {
  const head = { ':status': 200, 'content-type': 'application/grpc', connection: 'close', 'x-a': '1' } as unknown as IncomingHttpHeaders;
  assert.deepEqual(h2ClientHeaders(head, true),
    { ':status': 200, 'content-type': 'application/grpc', 'x-a': '1' });
  const trailers = { 'grpc-status': '0', 'grpc-message': '', ':status': 200 } as unknown as IncomingHttpHeaders;
  assert.deepEqual(h2ClientHeaders(trailers, false), { 'grpc-status': '0', 'grpc-message': '' });
});
