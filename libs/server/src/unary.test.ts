import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError, SluiceError } from '@sluice/errors';
import { toGrpcStatus } from './unary.js';
import { EchoClient, callEcho, defaultConfig, startEchoServer } from './test-support.js';

test('toGrpcStatus keeps a SluiceError code, message and field details, hides anything else as INTERNAL', () => {
  const withField = toGrpcStatus(new InvalidArgumentError('bad field', 'x'));
  assert.equal(withField.code, grpc.status.INVALID_ARGUMENT);
  assert.equal(withField.details, 'bad field');
  assert.equal(withField.metadata?.get('grpc-status-details-bin').length, 1, 'the field travels in the status trailer');
  assert.deepEqual(toGrpcStatus(new SluiceError('SLUICE_ERR_X', 'gone', { grpcCode: grpc.status.NOT_FOUND })), { code: grpc.status.NOT_FOUND, details: 'gone' });
  assert.deepEqual(toGrpcStatus(new Error('/etc/secret')), { code: grpc.status.INTERNAL, details: 'internal error' });
  assert.deepEqual(toGrpcStatus('a string'), { code: grpc.status.INTERNAL, details: 'internal error' });
});

test('unary adapter over a real call: SluiceError → its status, other errors → INTERNAL', async (t) => {
  const s = await startEchoServer(defaultConfig());
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await s.server.shutdown(500); });
  await assert.rejects(callEcho(client, { message: 'x', fail_code: grpc.status.FAILED_PRECONDITION, fail_message: 'not yet' }),
    { code: grpc.status.FAILED_PRECONDITION, details: 'not yet' });
  await assert.rejects(callEcho(client, { message: 'x', fail_code: 999 }), { code: grpc.status.INTERNAL, details: 'internal error' });
});
