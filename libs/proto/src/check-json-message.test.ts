import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { checkJsonMessage } from './check-json-message.js';

const CHECKHTTP = 'sluice.flowcontrol.checkhttp.v1.CheckHTTPRequest';

test('a well-formed CheckHTTPRequest passes unchanged, in .proto or JSON names', () => {
  const body = {
    control_point: 'ingress',
    source: { address: '10.0.0.1', port: 4000, protocol: 'TCP' },
    request: { method: 'GET', path: '/a?b=1', headers: { 'user-agent': 'x' }, size: '-1', truncated_body: false },
  };
  assert.equal(checkJsonMessage(CHECKHTTP, body), body);
  assert.doesNotThrow(() => checkJsonMessage(CHECKHTTP, { controlPoint: 'ingress', request: { truncatedBody: true } }));
  assert.doesNotThrow(() => checkJsonMessage(CHECKHTTP, { control_point: 'x', source: null }));
  assert.doesNotThrow(() => checkJsonMessage('aperture.flowcontrol.check.v1.CheckRequest', { control_point: 'c', labels: { a: 'b' } }));
});

const BAD: Array<[string, string, unknown, string, RegExp]> = [
  ['not an object', CHECKHTTP, [], 'body', /want a JSON object/],
  ['string where a string is wanted', CHECKHTTP, { control_point: 5 }, 'control_point', /want a string, got number/],
  ['bool as string', CHECKHTTP, { request: { truncated_body: 'no' } }, 'request.truncated_body', /want true or false/],
  ['int64 not a number', CHECKHTTP, { request: { size: 'abc' } }, 'request.size', /whole number/],
  ['int64 fraction', CHECKHTTP, { request: { size: 1.5 } }, 'request.size', /whole number/],
  ['uint32 negative', CHECKHTTP, { source: { port: -1 } }, 'source.port', /out of range for uint32/],
  ['uint32 too large', CHECKHTTP, { source: { port: 2 ** 33 } }, 'source.port', /out of range/],
  ['map as array', CHECKHTTP, { request: { headers: [] } }, 'request.headers', /want a JSON object \(map\)/],
  ['map value type', CHECKHTTP, { request: { headers: { a: 1 } } }, 'request.headers["a"]', /want a string/],
  ['unknown field', CHECKHTTP, { control_pont: 'x' }, 'control_pont', /unknown field/],
  ['unknown nested field', CHECKHTTP, { request: { verb: 'GET' } }, 'request.verb', /unknown field/],
  ['a name Object.prototype has', CHECKHTTP, { constructor: 1 }, 'constructor', /unknown field/],
  ['__proto__ as a member', CHECKHTTP, JSON.parse('{"__proto__": {}}') as unknown, '__proto__', /unknown field/],
  ['an inherited name nested', CHECKHTTP, { request: { toString: 'x' } }, 'request.toString', /unknown field/],
  ['an inherited name where oneofs are', 'sluice.flowcontrol.checkhttp.v1.CheckHTTPResponse', { hasOwnProperty: {} }, 'hasOwnProperty', /unknown field/],
  ['enum unknown', CHECKHTTP, { source: { protocol: 'SCTP' } }, 'source.protocol', /want one of TCP, UDP/],
  ['message as string', CHECKHTTP, { request: 'GET /' }, 'request', /want a JSON object/],
  ['repeated not array', 'aperture.flowcontrol.check.v1.FlowEndRequest', { inflight_requests: {} }, 'inflight_requests', /want a JSON array/],
  ['repeated item type', 'aperture.flowcontrol.check.v1.FlowEndRequest', { inflight_requests: [{ tokens: 'many' }] }, 'inflight_requests[0].tokens', /want a number/],
];

for (const [name, type, json, field, message] of BAD) {
  test(`refused: ${name}`, () => {
    assert.throws(() => checkJsonMessage(type, json), (err: unknown) => {
      assert.ok(err instanceof InvalidArgumentError);
      assert.equal(err.field, field);
      assert.match(err.message, message);
      return true;
    });
  });
}
