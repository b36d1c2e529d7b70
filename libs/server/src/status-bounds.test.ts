import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { SluiceError } from '@sluice/errors';
import { BAD_REQUEST_TYPE, STATUS_DETAILS_KEY, decodeStatusDetails } from './status-details.js';
import { MAX_LISTED_VIOLATIONS, MAX_STATUS_DETAILS_BYTES, MAX_STATUS_MESSAGE_BYTES, boundStatus, truncateUtf8 } from './status-bounds.js';
import { createServer } from './create-server.js';
import { unary } from './unary.js';
import { EchoClient, callEcho, defaultConfig } from './test-support.js';

interface Violations { '@type': string; field_violations: { field: string; description: string }[] }

test('truncateUtf8 cuts on a character boundary within the byte bound and says how long the text was', () => {
  assert.equal(truncateUtf8('short', 10), 'short');
  const cut = truncateUtf8('é'.repeat(1000), 100);
  assert.ok(Buffer.byteLength(cut) <= 100, cut);
  assert.match(cut, /^é+ … \(1000 characters in all\)$/);
  assert.ok(Buffer.byteLength(truncateUtf8('😀'.repeat(100), 50)) <= 50);
});

test('boundStatus: the message bounded, the first violations listed (each bounded) and "and K more"', () => {
  const many = Array.from({ length: 5000 }, (_, i) => ({ field: `spec.circuit.components[${i}]`, description: `cycle ${'x'.repeat(1000)}` }));
  const { message, details } = boundStatus('m'.repeat(20_000), [{ '@type': BAD_REQUEST_TYPE, field_violations: many }, { '@type': 'other' }]);
  assert.ok(Buffer.byteLength(message) <= MAX_STATUS_MESSAGE_BYTES);
  const listed = (details[0] as Violations).field_violations;
  assert.ok(listed.length <= MAX_LISTED_VIOLATIONS + 1);
  assert.equal(listed[0].field, 'spec.circuit.components[0]');
  assert.deepEqual(listed.at(-1), { field: '', description: `and ${5000 - (listed.length - 1)} more` });
  const bytes = listed.reduce((n, v) => n + Buffer.byteLength(v.field) + Buffer.byteLength(v.description), 0);
  assert.ok(bytes <= MAX_STATUS_DETAILS_BYTES, `${bytes} bytes of violations`);
  assert.deepEqual(details[1], { '@type': 'other' });
  const few = [{ field: 'a', description: 'b' }];
  assert.deepEqual(boundStatus('ok', [{ '@type': BAD_REQUEST_TYPE, field_violations: few }]), { message: 'ok', details: [{ '@type': BAD_REQUEST_TYPE, field_violations: few }] });
});

test('a huge error message and violation list: gRPC and the HTTP gateway both answer INVALID_ARGUMENT at once, bounded', async (t) => {
  const server = createServer(defaultConfig(), { registry: new Registry() });
  const signal = 'S'.repeat(20_000);
  server.addService(EchoClient.service, {
    Echo: unary<{ message: string }, { message: string }>(() => {
      const violations = Array.from({ length: 5000 }, (_, i) => ({ field: `spec.circuit.components[${i}].out_ports.output.signal_name`, description: `signal ${signal} is in a cycle` }));
      throw new SluiceError('SLUICE_ERR_INVALID_POLICY', `policy "p" is invalid: signal ${signal} is in a cycle (and 4999 more)`, {
        grpcCode: grpc.status.INVALID_ARGUMENT,
        details: [{ '@type': BAD_REQUEST_TYPE, field_violations: violations }],
      });
    }),
  });
  server.addGatewayRoute({ method: 'post', path: '/echo', service: 'sluice.test.echo.v1.EchoService', rpc: 'Echo', toRequest: ({ body }) => body as object });
  await server.start();
  const { port } = server.address();
  const client = new EchoClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await server.shutdown({ deadlineMs: 1000 }); });

  await assert.rejects(callEcho(client, { message: 'x' }, 10_000), (err: grpc.ServiceError) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT, err.message);
    assert.ok(Buffer.byteLength(err.details) <= MAX_STATUS_MESSAGE_BYTES, `message of ${err.details.length} characters`);
    const trailer = err.metadata.get(STATUS_DETAILS_KEY)[0];
    assert.ok(Buffer.isBuffer(trailer));
    const listed = (decodeStatusDetails(trailer)[0] as Violations).field_violations;
    assert.match(listed.at(-1)?.description ?? '', /^and \d+ more$/);
    return true;
  });

  const res = await fetch(`http://127.0.0.1:${port}/echo`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":"x"}', signal: AbortSignal.timeout(10_000),
  });
  assert.equal(res.status, 400);
  const body = await res.json() as { code: number; message: string; details: Violations[] };
  assert.equal(body.code, grpc.status.INVALID_ARGUMENT);
  assert.match(body.message, /^policy "p" is invalid: signal S+ … \(\d+ characters in all\)$/);
  assert.equal(body.details[0].field_violations[0].field, 'spec.circuit.components[0].out_ports.output.signal_name');
  assert.match(body.details[0].field_violations.at(-1)?.description ?? '', /^and \d+ more$/);
});
