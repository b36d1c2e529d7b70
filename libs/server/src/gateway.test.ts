import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { rawExchange } from './socket-support.js';
import { ECHO_SERVICE, defaultConfig, type EchoResponse, startEchoServer, type Started } from './test-support.js';
import type { SluiceServer } from './types.js';

function mountRoutes(server: SluiceServer): void {
  server.addGatewayRoute({
    method: 'post', path: '/v1/echo', service: ECHO_SERVICE, rpc: 'Echo', requireBody: true, bodyLimitBytes: 1024,
    toRequest: ({ body }) => {
      const b = body as { message?: unknown; delay_ms?: number; fail_code?: number; fail_message?: string };
      if (typeof b !== 'object' || b === null || typeof b.message !== 'string') throw new InvalidArgumentError('message must be a string', 'message');
      return b;
    },
    timeoutMs: 2000,
  });
  server.addGatewayRoute({
    method: 'get', path: '/v1/echo/:message', service: ECHO_SERVICE, rpc: 'Echo',
    toRequest: ({ params, query }) => ({ message: `${params.message}${typeof query.suffix === 'string' ? query.suffix : ''}` }),
  });
  server.addGatewayRoute({
    method: 'get', path: '/v1/shout/:message', service: ECHO_SERVICE, rpc: 'Echo',
    toRequest: ({ params }) => ({ message: params.message, fail_code: params.message === 'fail' ? 5 : 0 }),
    fromResponse: (response) => {
      const { message, served_by } = response as EchoResponse;
      if (message === 'bad') throw new InvalidArgumentError('bad is not shouted', 'message');
      if (message === 'boom') throw new Error('secret detail');
      return { shouted: message.toUpperCase(), by: [served_by] };
    },
  });
  server.addGatewayRoute({ method: 'get', path: '/v1/missing', service: 'no.such.Service', rpc: 'Nope', toRequest: () => ({}) });
}

async function start(t: { after: (fn: () => Promise<void>) => void }, grpcServerAddress = ''): Promise<Started> {
  const s = await startEchoServer(defaultConfig({ grpc_gateway: { grpc_server_address: grpcServerAddress } }), mountRoutes);
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  return s;
}

const post = (base: string, body: string, type = 'application/json'): Promise<Response> =>
  fetch(`${base}/v1/echo`, { method: 'POST', headers: { 'content-type': type }, body });

test('gateway JSON round trip through the real gRPC method (POST body and GET params/query)', async (t) => {
  const s = await start(t);
  const res = await post(s.base, JSON.stringify({ message: 'hi' }));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { message: 'hi', served_by: 'echo' });
  const get = await fetch(`${s.base}/v1/echo/abc?suffix=def`);
  assert.equal(get.status, 200);
  assert.deepEqual(await get.json(), { message: 'abcdef', served_by: 'echo' });
  const grpcHandled = (await s.registry.getSingleMetric('grpcserver_handled_total')!.get()).values;
  assert.ok(grpcHandled.some((v) => v.labels.grpc_method === 'Echo' && v.labels.grpc_code === 'OK' && v.value >= 2), 'the gateway went through gRPC');
});

test('fromResponse builds the success body from the decoded response; its errors and gRPC errors keep the gateway shape', async (t) => {
  const s = await start(t);
  const get = async (message: string): Promise<[number, unknown]> => {
    const res = await fetch(`${s.base}/v1/shout/${message}`);
    return [res.status, await res.json()];
  };
  assert.deepEqual(await get('hi'), [200, { shouted: 'HI', by: ['echo'] }]);
  assert.deepEqual(await get('bad'), [400, { code: 3, message: 'bad is not shouted', details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', field_violations: [{ field: 'message', description: 'bad is not shouted' }] }] }]);
  assert.deepEqual(await get('boom'), [500, { code: 13, message: 'internal error', details: [] }]);
  assert.deepEqual(await get('fail'), [404, { code: 5, message: 'echo failed', details: [] }], 'fromResponse is not called for a failed call');
});

test('gateway with an explicit grpc_server_address dials it', async (t) => {
  const target = await start(t);
  const s = await start(t, `127.0.0.1:${target.port}`);
  const res = await post(s.base, JSON.stringify({ message: 'via' }));
  assert.deepEqual(await res.json(), { message: 'via', served_by: 'echo' });
  const handled = (await target.registry.getSingleMetric('grpcserver_handled_total')!.get()).values;
  assert.ok(handled.some((v) => v.labels.grpc_code === 'OK' && v.value === 1), 'served by the target server');
});

test('gateway bad input: 415, 400 malformed, 400 missing body, 413, toRequest errors; shapes are {code,message,details}', async (t) => {
  const s = await start(t);
  const cases: [Promise<Response>, number, RegExp][] = [
    [post(s.base, 'message=hi', 'text/plain'), 415, /application\/json/],
    [post(s.base, '{"message": "hi"', 'application/json'), 400, /not valid JSON/],
    [fetch(`${s.base}/v1/echo`, { method: 'POST' }), 400, /body is required/],
    [post(s.base, JSON.stringify({ message: 'x'.repeat(2000) })), 413, /exceeds the limit of 1024 bytes/],
    [post(s.base, JSON.stringify({ message: 42 })), 400, /message must be a string/],
    [post(s.base, JSON.stringify({ message: 'x', meta: 'not an object' })), 400, /does not fit/],
  ];
  for (const [pending, status, message] of cases) {
    const res = await pending;
    assert.equal(res.status, status);
    const body = (await res.json()) as { code: number; message: string; details: unknown[] };
    assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'message']);
    assert.match(body.message, message);
    assert.ok(Array.isArray(body.details));
  }
  const field = (await (await post(s.base, JSON.stringify({ message: 42 }))).json()) as { code: number; details: unknown[] };
  assert.equal(field.code, 3);
  assert.match(JSON.stringify(field.details), /"field":"message"/);
});

test('gateway maps gRPC errors to the gateway shape and HTTP status', async (t) => {
  const s = await start(t);
  const call = async (body: object): Promise<[number, unknown]> => {
    const res = await post(s.base, JSON.stringify(body));
    return [res.status, await res.json()];
  };
  assert.deepEqual(await call({ message: 'x', fail_code: 5, fail_message: 'nothing here' }), [404, { code: 5, message: 'nothing here', details: [] }]);
  assert.deepEqual(await call({ message: 'x', fail_code: 8, fail_message: 'slow down' }), [429, { code: 8, message: 'slow down', details: [] }]);
  assert.deepEqual(await call({ message: 'x', fail_code: 14, fail_message: 'down' }), [503, { code: 14, message: 'down', details: [] }]);
  assert.deepEqual(await call({ message: 'x', fail_code: 999 }), [500, { code: 13, message: 'internal error', details: [] }]);
  const [status, body] = await call({ message: 'x', delay_ms: 4000 });
  assert.equal(status, 504);
  assert.equal((body as { code: number }).code, 4);
});

test('unknown routes, wrong methods and unregistered services answer 404 in the gateway shape', async (t) => {
  const s = await start(t);
  for (const [path, method] of [['/v1/nope', 'GET'], ['/v1/echo', 'PUT'], ['/v1/missing', 'GET']] as const) {
    const res = await fetch(`${s.base}${path}`, { method });
    assert.equal(res.status, 404, `${method} ${path}`);
    const body = (await res.json()) as { code: number; message: string; details: unknown[] };
    assert.equal(body.code, 5);
    assert.deepEqual(body.details, []);
  }
});

test('chunked body over the limit is 413 and a raw garbage request is 400, server stays up', async (t) => {
  const s = await start(t);
  const chunk = 'x'.repeat(800);
  const chunked = await rawExchange(s.port,
    'POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
    `320\r\n${chunk}\r\n320\r\n${chunk}\r\n0\r\n\r\n`, 3000);
  assert.match(chunked.text, /^HTTP\/1\.1 413/);
  const garbage = await rawExchange(s.port, 'THIS IS NOT HTTP\r\n\r\n', 3000);
  assert.match(garbage.text, /^HTTP\/1\.1 400/);
  assert.equal((await post(s.base, JSON.stringify({ message: 'alive' }))).status, 200);
});

test('a route parameter with invalid percent-encoding is 400 in the gateway shape, never a logged 500', async (t) => {
  const logged: string[] = [];
  const s = await startEchoServer(defaultConfig(), mountRoutes, { error: (m: string) => { logged.push(m); } });
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  for (const path of ['/v1/echo/%E0%A4%A', '/v1/echo/%', '/v1/echo/%zz', `/v1/shout/%E0${'a'.repeat(500)}`]) {
    const r = await fetch(`${s.base}${path}`);
    assert.equal(r.status, 400, path);
    const body = await r.json() as { code: number; message: string; details: { field_violations?: { field: string }[] }[] };
    assert.equal(body.code, 3);
    assert.match(body.message, /^path parameter is not valid percent-encoding: /);
    assert.ok(body.message.length < 200, 'the path is quoted within a bound');
    assert.equal(body.details[0]?.field_violations?.[0]?.field, 'path');
  }
  assert.deepEqual(logged, [], 'nothing logged as a handler failure');
  assert.equal((await fetch(`${s.base}/v1/echo/ok%20fine`)).status, 200, 'valid encoding still routes');
});
