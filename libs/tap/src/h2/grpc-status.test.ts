import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeGrpcMessage, formatGrpcTimeout, grpcCodeOfDenial, grpcDenialHeaders, parseGrpcTimeout } from './grpc-status.js';

test('grpc-timeout: every unit, absent, malformed', () => {
  assert.equal(parseGrpcTimeout('2H'), 7_200_000);
  assert.equal(parseGrpcTimeout('3M'), 180_000);
  assert.equal(parseGrpcTimeout('5S'), 5000);
  assert.equal(parseGrpcTimeout('250m'), 250);
  assert.equal(parseGrpcTimeout('1500u'), 1.5);
  assert.equal(parseGrpcTimeout('2000000n'), 2);
  assert.equal(parseGrpcTimeout('99999999H'), 100 * 24 * 3_600_000, 'bounded');
  assert.equal(parseGrpcTimeout(undefined), undefined);
  for (const bad of ['', '5', 'S', '123456789m', '1.5S', '-1S', '5s', ' 5S', '5S ', '5X']) assert.equal(parseGrpcTimeout(bad), null, JSON.stringify(bad));
  assert.equal(parseGrpcTimeout(['1S', '2S']), null, 'repeated');
});

test('a remaining deadline as grpc-timeout: whole ms, at least 1, seconds past 8 digits', () => {
  assert.equal(formatGrpcTimeout(249.2), '250m');
  assert.equal(formatGrpcTimeout(0), '1m');
  assert.equal(formatGrpcTimeout(-5), '1m');
  assert.equal(formatGrpcTimeout(123_456_789), '123457S');
  assert.equal(parseGrpcTimeout(formatGrpcTimeout(99_999_999)), 99_999_999);
});

test('grpc-message: printable ASCII as is, % and everything else percent-encoded (UTF-8)', () => {
  assert.equal(encodeGrpcMessage('rate limited'), 'rate limited');
  assert.equal(encodeGrpcMessage('50% off'), '50%25 off');
  assert.equal(encodeGrpcMessage('a\nb'), 'a%0Ab');
  assert.equal(encodeGrpcMessage('café'), 'caf%C3%A9');
});

test('denial codes: 429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE, 403 PERMISSION_DENIED, others as the gateway maps them', () => {
  assert.deepEqual([429, 503, 403, 400, 504, 418].map(grpcCodeOfDenial), [8, 14, 7, 3, 4, 9]);
});

test('a rate-limit denial as a trailers-only answer: HTTP 200, grpc-status 8, its message, pushback from the wait', () => {
  const h = grpcDenialHeaders({
    status: 429,
    headers: [{ key: 'content-type', value: 'application/json' }, { key: 'retry-after', value: '2' }, { key: 'X-RateLimit-Remaining', value: '0' }],
    body: JSON.stringify({ code: 8, message: 'rate limited: 100%', details: [] }),
    waitMs: 1500.2,
  });
  assert.deepEqual(h, {
    ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '8', 'grpc-message': 'rate limited: 100%25',
    'grpc-retry-pushback-ms': '1501', 'x-ratelimit-remaining': '0',
  });
});

test('no tokens: UNAVAILABLE; pushback from Retry-After without a wait, none when neither; a text body is the message', () => {
  const fromRetry = grpcDenialHeaders({ status: 503, headers: [{ key: 'Retry-After', value: '3' }], body: 'no tokens' });
  assert.equal(fromRetry['grpc-status'], '14');
  assert.equal(fromRetry['grpc-retry-pushback-ms'], '3000');
  assert.equal(fromRetry['grpc-message'], 'no tokens');
  assert.equal(fromRetry['retry-after'], undefined, 'Retry-After is the HTTP answer\'s, not metadata');
  const bare = grpcDenialHeaders({ status: 403, headers: [{ key: 'retry-after', value: 'Wed, 21 Oct 2015 07:28:00 GMT' }], body: '' });
  assert.equal(bare['grpc-status'], '7');
  assert.equal(bare['grpc-message'], 'request rejected (HTTP 403)');
  assert.equal('grpc-retry-pushback-ms' in bare, false);
  const repeated = grpcDenialHeaders({ status: 429, headers: [{ key: 'x-a', value: '1' }, { key: 'X-A', value: '2' }, { key: 'grpc-status', value: '0' }], body: '{"message":""}' });
  assert.deepEqual(repeated['x-a'], ['1', '2']);
  assert.equal(repeated['grpc-status'], '8', 'the agent cannot say OK in a denial');
  assert.equal(repeated['grpc-message'], '{"message":""}');
});
