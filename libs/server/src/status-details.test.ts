import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { InvalidArgumentError, SluiceError } from '@sluice/errors';
import { BAD_REQUEST_TYPE, STATUS_DETAILS_KEY, decodeStatusDetails, encodeStatusDetails } from './status-details.js';
import { createServer } from './create-server.js';
import { unary } from './unary.js';
import { EchoClient, callEcho, defaultConfig } from './test-support.js';

test('BadRequest details round-trip through google.rpc.Status; other details are not sent', () => {
  const err = new InvalidArgumentError('match_expressions[0].operator: unknown operator', 'match_expressions[0].operator');
  const packed = encodeStatusDetails(err.grpcCode, err.message, err.details);
  assert.ok(packed !== undefined);
  assert.deepEqual(decodeStatusDetails(packed), [{ '@type': BAD_REQUEST_TYPE, field_violations: [{ field: 'match_expressions[0].operator', description: err.message }] }]);
  assert.equal(encodeStatusDetails(3, 'x', [{ '@type': 'type.googleapis.com/other' }, 'junk', null]), undefined);
  assert.equal(encodeStatusDetails(13, 'x', []), undefined);
  assert.deepEqual(decodeStatusDetails(Buffer.from('not a status')), [], 'an unreadable trailer gives no details, never a throw');
});

test('a field violation reaches gRPC callers in the status trailer and HTTP callers in details', async (t) => {
  const server = createServer(defaultConfig(), { registry: new Registry() });
  server.addService(EchoClient.service, {
    Echo: unary<{ message: string }, { message: string }>((req) => {
      if (req.message === 'plain') throw new SluiceError('SLUICE_ERR_INTERNAL' as const, 'no details here', { grpcCode: grpc.status.FAILED_PRECONDITION });
      throw new InvalidArgumentError(`filter.regex: bad regex ${JSON.stringify(req.message)}`, 'filter.regex');
    }),
  });
  server.addGatewayRoute({ method: 'post', path: '/echo', service: 'sluice.test.echo.v1.EchoService', rpc: 'Echo', toRequest: ({ body }) => body as object });
  await server.start();
  const { port } = server.address();
  const client = new EchoClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await server.shutdown({ deadlineMs: 1000 }); });

  await assert.rejects(callEcho(client, { message: '(' }), (err: grpc.ServiceError) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    const trailer = err.metadata.get(STATUS_DETAILS_KEY)[0];
    assert.ok(Buffer.isBuffer(trailer), 'grpc-status-details-bin is present');
    assert.deepEqual(decodeStatusDetails(trailer), [{ '@type': BAD_REQUEST_TYPE, field_violations: [{ field: 'filter.regex', description: 'filter.regex: bad regex "("' }] }]);
    return true;
  });

  const res = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: '(' }) });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), {
    code: 3, message: 'filter.regex: bad regex "("',
    details: [{ '@type': BAD_REQUEST_TYPE, field_violations: [{ field: 'filter.regex', description: 'filter.regex: bad regex "("' }] }],
  });
  const plain = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'plain' }) });
  assert.equal(plain.status, 400);
  assert.deepEqual(await plain.json(), { code: 9, message: 'no details here', details: [] });
});
