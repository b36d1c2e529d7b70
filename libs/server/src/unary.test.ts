import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError, SluiceError } from '@sluice/errors';
import { toGrpcStatus, unary } from './unary.js';
import { EchoClient, callEcho, defaultConfig, startEchoServer } from './test-support.js';

test('toGrpcStatus keeps a SluiceError code, message and field details, hides anything else as INTERNAL', () => {
  const withField = toGrpcStatus(new InvalidArgumentError('bad field', 'x'));
  assert.equal(withField.code, grpc.status.INVALID_ARGUMENT);
  assert.equal(withField.details, 'bad field');
  assert.equal(withField.metadata?.get('grpc-status-details-bin').length, 1, 'the field travels in the status trailer');
  assert.deepEqual(toGrpcStatus(new SluiceError('SLUICE_ERR_NOT_FOUND', 'gone', { grpcCode: grpc.status.NOT_FOUND })), { code: grpc.status.NOT_FOUND, details: 'gone' });
  assert.deepEqual(toGrpcStatus(new Error('/etc/secret')), { code: grpc.status.INTERNAL, details: 'internal error' });
  assert.deepEqual(toGrpcStatus('a string'), { code: grpc.status.INTERNAL, details: 'internal error' });
});

test('unary adapter over a real call: SluiceError → its status, other errors → INTERNAL', async (t) => {
  const s = await startEchoServer(defaultConfig());
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await s.server.shutdown({ deadlineMs: 500 }); });
  await assert.rejects(callEcho(client, { message: 'x', fail_code: grpc.status.FAILED_PRECONDITION, fail_message: 'not yet' }),
    { code: grpc.status.FAILED_PRECONDITION, details: 'not yet' });
  await assert.rejects(callEcho(client, { message: 'x', fail_code: 999 }), { code: grpc.status.INTERNAL, details: 'internal error' });
});

test('unary answers a value at once, a promise when it settles, and a throw or a rejection as its status', async () => {
  type Answer = { err: grpc.ServiceError | null; value: unknown };
  const run = (fn: () => unknown): { answers: Answer[] } => {
    const answers: Answer[] = [];
    const handler = unary<unknown, unknown>(fn as () => unknown);
    handler({ request: {} } as grpc.ServerUnaryCall<unknown, unknown>, (err, value) => { answers.push({ err: err as grpc.ServiceError | null, value }); });
    return { answers };
  };
  const sync = run(() => ({ ok: 1 }));
  assert.deepEqual(sync.answers, [{ err: null, value: { ok: 1 } }], 'a value: answered before the handler returns');
  const later = run(() => Promise.resolve({ ok: 2 }));
  assert.equal(later.answers.length, 0, 'a promise: not yet');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(later.answers, [{ err: null, value: { ok: 2 } }]);
  const thrown = run(() => { throw new InvalidArgumentError('bad field', 'f'); });
  assert.equal(thrown.answers.length, 1, 'a throw: answered at once');
  assert.equal(thrown.answers[0].err?.code, grpc.status.INVALID_ARGUMENT);
  assert.equal(thrown.answers[0].err?.details, 'bad field');
  const hidden = run(() => { throw new Error('secret'); });
  assert.deepEqual([hidden.answers[0].err?.code, hidden.answers[0].err?.details], [grpc.status.INTERNAL, 'internal error']);
  const rejected = run(() => Promise.reject(new InvalidArgumentError('later bad', 'g')));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual([rejected.answers[0].err?.code, rejected.answers[0].err?.details], [grpc.status.INVALID_ARGUMENT, 'later bad']);
  const undef = run(() => undefined);
  assert.deepEqual(undef.answers, [{ err: null, value: undefined }], 'undefined is a value, not a promise');
});
