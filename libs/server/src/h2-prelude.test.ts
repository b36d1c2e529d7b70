import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLAG_END_HEADERS, FLAG_PADDED, FLAG_PRIORITY, FrameType, H2Prelude } from './h2-prelude.js';
import { CLIENT_PREFACE, SETTINGS_ACK, echoMessage, frame, getFields, grpcFields, headerBlock } from './h2-test-frames.js';

const LIMIT = 64 * 1024;
const WINDOW_UPDATE = frame(FrameType.WINDOW_UPDATE, 0, 0, Buffer.from([0, 0x0f, 0, 0]));
const PING = frame(FrameType.PING, 0, 0, Buffer.alloc(8, 7));

function grpcHeaders(stream = 1): Buffer {
  return frame(FrameType.HEADERS, FLAG_END_HEADERS, stream, headerBlock(grpcFields()));
}

test('a gRPC first request decides gRPC; every byte is replayed, the unparsed tail included', () => {
  const p = new H2Prelude(LIMIT);
  const data = frame(FrameType.DATA, 1, 1, echoMessage('x'));
  const bytes = Buffer.concat([CLIENT_PREFACE, WINDOW_UPDATE, PING, grpcHeaders(), data.subarray(0, 5)]);
  assert.deepEqual(p.push(bytes), { state: 'decided', grpc: true });
  assert.ok(p.replay().equals(bytes));
});

test('a first call whose DATA comes in the same read, past the byte bound, is decided all the same', () => {
  const p = new H2Prelude(LIMIT);
  const data: Buffer[] = [];
  for (let i = 0; i < 8; i++) data.push(frame(FrameType.DATA, 0, 1, Buffer.alloc(16_384, i)));
  const bytes = Buffer.concat([CLIENT_PREFACE, grpcHeaders(), ...data]);
  assert.ok(bytes.length > LIMIT);
  assert.deepEqual(p.push(bytes), { state: 'decided', grpc: true });
  assert.ok(p.replay().equals(bytes));
});

test('a first request of another content type, or none, decides HTTP; bytes may come one at a time', () => {
  const json = new H2Prelude(LIMIT);
  const block = headerBlock({ ...getFields('/v1/x'), ':method': 'POST', 'content-type': 'application/json' });
  const bytes = Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS, 1, block)]);
  for (let i = 0; i < bytes.length - 1; i++) assert.deepEqual(json.push(bytes.subarray(i, i + 1)), { state: 'more' }, `byte ${i}`);
  assert.deepEqual(json.push(bytes.subarray(bytes.length - 1)), { state: 'decided', grpc: false });
  assert.ok(json.replay().equals(bytes));
  const get = new H2Prelude(LIMIT);
  assert.deepEqual(get.push(Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS, 1, headerBlock(getFields('/hello')))])), { state: 'decided', grpc: false });
  const grpcWeb = new H2Prelude(LIMIT);
  const web = headerBlock({ ...grpcFields(), 'content-type': 'application/grpc-web+proto' });
  assert.deepEqual(grpcWeb.push(Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS, 1, web)])), { state: 'decided', grpc: true });
});

test('a header block split over CONTINUATION frames, with padding and priority, is decoded whole', () => {
  const p = new H2Prelude(LIMIT);
  const block = headerBlock({ ...grpcFields(), 'x-filler': 'y'.repeat(300) });
  const cut = 20;
  const first = Buffer.concat([Buffer.from([3]), Buffer.from([0, 0, 0, 0, 16]), block.subarray(0, cut), Buffer.alloc(3)]);
  const head = frame(FrameType.HEADERS, FLAG_PADDED | FLAG_PRIORITY, 1, first);
  const mid = frame(FrameType.CONTINUATION, 0, 1, block.subarray(cut, 200));
  assert.deepEqual(p.push(Buffer.concat([CLIENT_PREFACE, head, mid])), { state: 'more' });
  assert.deepEqual(p.push(frame(FrameType.CONTINUATION, FLAG_END_HEADERS, 1, block.subarray(200))), { state: 'decided', grpc: true });
});

test('after our SETTINGS, the decision waits for its acknowledgement, which is not replayed', () => {
  const p = new H2Prelude(LIMIT);
  assert.deepEqual(p.push(CLIENT_PREFACE), { state: 'more' });
  assert.equal(p.clientPrefaceDone, true);
  p.markSettingsSent();
  // The request crossed our SETTINGS on the wire: its acknowledgement comes after it.
  const call = grpcHeaders();
  assert.deepEqual(p.push(Buffer.concat([WINDOW_UPDATE, call])), { state: 'more' });
  const later = grpcHeaders(3);
  assert.deepEqual(p.push(Buffer.concat([later, SETTINGS_ACK, PING])), { state: 'decided', grpc: true });
  assert.ok(p.replay().equals(Buffer.concat([CLIENT_PREFACE, WINDOW_UPDATE, call, later, PING])));
});

test('a client that acknowledged our SETTINGS and sends nothing is idle', () => {
  const p = new H2Prelude(LIMIT);
  p.push(CLIENT_PREFACE);
  p.markSettingsSent();
  assert.equal(p.idle, false);
  assert.deepEqual(p.push(SETTINGS_ACK), { state: 'more' });
  assert.equal(p.idle, true);
  assert.ok(p.replay().equals(CLIENT_PREFACE));
  assert.deepEqual(p.push(grpcHeaders()), { state: 'decided', grpc: true });
  assert.equal(p.idle, false);
});

test('frames out of place, oversized frames and undecodable blocks are dropped with a reason', () => {
  const cases: Array<[string, Buffer, RegExp]> = [
    ['not a preface', Buffer.from('PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n'), /not an HTTP\/2 connection preface/],
    ['no SETTINGS first', Buffer.concat([CLIENT_PREFACE.subarray(0, 24), PING]), /not followed by SETTINGS/],
    ['DATA first', Buffer.concat([CLIENT_PREFACE, frame(FrameType.DATA, 0, 1, Buffer.from('x'))]), /type 0 before the first request/],
    ['RST_STREAM first', Buffer.concat([CLIENT_PREFACE, frame(FrameType.RST_STREAM, 0, 1, Buffer.alloc(4))]), /type 3/],
    ['lone CONTINUATION', Buffer.concat([CLIENT_PREFACE, frame(FrameType.CONTINUATION, FLAG_END_HEADERS, 1, Buffer.from([0x82]))]), /type 9/],
    ['GOAWAY', Buffer.concat([CLIENT_PREFACE, frame(FrameType.GOAWAY, 0, 0, Buffer.alloc(8))]), /went away/],
    ['stray ACK', Buffer.concat([CLIENT_PREFACE, SETTINGS_ACK]), /never sent/],
    ['bad SETTINGS', Buffer.concat([CLIENT_PREFACE.subarray(0, 24), frame(FrameType.SETTINGS, 0, 0, Buffer.alloc(5))]), /malformed SETTINGS/],
    ['even stream', Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS, 2, headerBlock(getFields('/')))]), /even stream/],
    ['stream WINDOW_UPDATE', Buffer.concat([CLIENT_PREFACE, frame(FrameType.WINDOW_UPDATE, 0, 1, Buffer.alloc(4, 1))]), /WINDOW_UPDATE/],
    ['oversized frame', Buffer.concat([CLIENT_PREFACE, Buffer.from([0, 0x40, 1, FrameType.HEADERS, 4, 0, 0, 0, 1])]), /over the maximum frame size/],
    ['undecodable block', Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS, 1, Buffer.from([0xff, 0xff, 0xff, 0x7f]))]), /does not decode/],
    ['dynamic index', Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS, 1, Buffer.from([0x82, 0xc0]))]), /does not decode/],
    ['padding past the end', Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS | FLAG_PADDED, 1, Buffer.from([9, 0x82]))]), /malformed HEADERS/],
    ['interrupted block', Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, 0, 1, Buffer.from([0x82])), PING]), /interrupted/],
  ];
  for (const [name, bytes, reason] of cases) {
    const step = new H2Prelude(LIMIT).push(bytes);
    assert.equal(step.state, 'drop', name);
    assert.match((step as { reason: string }).reason, reason, name);
  }
});

test('more than the byte bound before a decision is dropped: a huge header block, a PING flood', () => {
  const huge = new H2Prelude(LIMIT);
  let step = huge.push(Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, 0, 1, Buffer.alloc(16_000, 0x40))]));
  for (let i = 0; i < 5 && step.state === 'more'; i++) step = huge.push(frame(FrameType.CONTINUATION, 0, 1, Buffer.alloc(16_000, 0x40)));
  assert.equal(step.state, 'drop');
  assert.match((step as { reason: string }).reason, /more than 65536 bytes/);
  const pings = new H2Prelude(LIMIT);
  step = pings.push(CLIENT_PREFACE);
  for (let i = 0; i < 5000 && step.state === 'more'; i++) step = pings.push(frame(FrameType.PING, 0, 0, Buffer.alloc(8)));
  assert.equal(step.state, 'drop');
});
