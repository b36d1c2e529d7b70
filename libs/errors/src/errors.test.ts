import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GrpcCode, InvalidArgumentError, PayloadTooLargeError, toGatewayError, httpStatusFromGrpcCode, SluiceError } from './index.js';

test('maps gRPC codes to HTTP like the gateway', () => {
  assert.equal(httpStatusFromGrpcCode(GrpcCode.INVALID_ARGUMENT), 400);
  assert.equal(httpStatusFromGrpcCode(GrpcCode.NOT_FOUND), 404);
  assert.equal(httpStatusFromGrpcCode(GrpcCode.RESOURCE_EXHAUSTED), 429);
  assert.equal(httpStatusFromGrpcCode(GrpcCode.UNIMPLEMENTED), 501);
  assert.equal(httpStatusFromGrpcCode(GrpcCode.UNAVAILABLE), 503);
  assert.equal(httpStatusFromGrpcCode(GrpcCode.DEADLINE_EXCEEDED), 504);
  assert.equal(httpStatusFromGrpcCode(GrpcCode.INTERNAL), 500);
});

test('gateway body of a Sluice error carries code, message, field', () => {
  const e = toGatewayError(new InvalidArgumentError('bad operator', 'match_expressions[0].operator'));
  assert.equal(e.status, 400);
  assert.equal(e.body.code, 3);
  assert.equal(e.body.message, 'bad operator');
  assert.match(JSON.stringify(e.body.details), /match_expressions\[0\]\.operator/);
  assert.equal(toGatewayError(new PayloadTooLargeError('too big')).status, 413);
  assert.ok(new InvalidArgumentError('x') instanceof SluiceError);
});

test('unknown errors do not leak', () => {
  const e = toGatewayError(new Error('secret path /etc/x'));
  assert.deepEqual(e, { status: 500, body: { code: 13, message: 'internal error', details: [] } });
  assert.equal(toGatewayError({ code: 14, details: 'down' }).status, 503);
});
