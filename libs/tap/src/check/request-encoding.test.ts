import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkProtos } from './check-protos.js';
import { FrameReader } from './grpc-frames.js';
import { requestFrame, streamRequestFrame } from './request-encoding.js';
import type { CheckHTTPRequest } from './types.js';

const REQUEST: CheckHTTPRequest = {
  source: { protocol: 'UDP', address: '10.0.0.1', port: 4242 },
  destination: { protocol: 'TCP', address: '10.0.0.2', port: 8080 },
  control_point: 'ingress',
  request: { method: 'POST', headers: { 'x-user': 'ann', accept: '*/*' }, path: '/p?q=1', host: 'svc', scheme: 'https', size: -1, protocol: 'HTTP/1.1', body: '{"a":1}', truncated_body: true },
  ramp_mode: true,
  interest_generation: 7,
};

function only(frame: Buffer): Buffer {
  const out: Buffer[] = [];
  new FrameReader().push(frame, (b) => out.push(Buffer.from(b)));
  assert.equal(out.length, 1, 'one whole message, nothing after it');
  return out[0] as Buffer;
}

function decoded(type: string, body: Buffer): unknown {
  const t = checkProtos().lookupType(`sluice.flowcontrol.checkhttp.v1.${type}`);
  return t.toObject(t.decode(body), { longs: Number, enums: String, defaults: true });
}

test('a stream request reads back through the .proto type as what was sent (enums by name, a negative size, the map)', () => {
  const m = decoded('CheckHTTPStreamRequest', only(streamRequestFrame(123_456_789_012, REQUEST))) as { id: number; request: unknown };
  assert.equal(m.id, 123_456_789_012);
  assert.deepEqual(m.request, REQUEST);
});

test('a unary request is framed the same way', () => {
  const frame = requestFrame(REQUEST);
  assert.equal(frame[0], 0, 'not compressed');
  assert.equal(frame.readUInt32BE(1), frame.length - 5);
  assert.deepEqual(decoded('CheckHTTPRequest', only(frame)), REQUEST);
});
