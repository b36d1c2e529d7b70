import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FrameBuilder, FrameDecoder, FrameTooLargeError } from './frame.js';
import { MAX_BATCH, MAX_KEY, OPS_PROTOCOL_VERSION, RequestEncoder, encodeResponse, parseRequest, parseResponse, type Op, type OpResult } from './ops.js';

const p1 = { capacity: 300, fillAmount: 300, intervalMs: 1000, continuousFill: true };
const p2 = { capacity: 5, fillAmount: 0.5, intervalMs: 250, continuousFill: false };
const ALL_OPS: Op[] = [
  { o: 'take', k: 'lim|alice', n: 1, p: p1 },
  { o: 'give', k: 'lim|bob', n: 2.5, p: p1 },
  { o: 'read', k: 'lim|carol' },
  { o: 'consume', k: 'lim|dave', n: 17, p: p2 },
  { o: 'replicate', k: 'lim|é€😀', s: { available: 12.25, fillAgoMs: 40 }, p: p2 },
  { o: 'handover', k: 'x'.repeat(MAX_KEY), s: { available: 0, fillAgoMs: 0 }, p: { ...p1 } },
  { o: 'pull', k: 'lim|erin' },
  { o: 'ping' },
];

/** The payload of one request frame holding `ops` (batch `id`). */
function request(ops: readonly Op[], id = 7): Buffer {
  const b = new FrameBuilder(64);
  const e = new RequestEncoder(b);
  e.begin();
  for (const op of ops) e.add(op);
  e.finish(id);
  const frames = new FrameDecoder().push(b.take());
  assert.equal(frames.length, 1);
  return frames[0];
}

function response(res: readonly OpResult[], id = 7): Buffer {
  const b = new FrameBuilder(64);
  encodeResponse(b, id, res);
  return new FrameDecoder().push(b.take())[0];
}

test('every operation decodes to what was encoded; a parameter set shared by a batch travels once', () => {
  assert.deepEqual(parseRequest(request(ALL_OPS, 0xffffffff)), { id: 0xffffffff, ops: ALL_OPS });
  const shared = Array.from({ length: 50 }, (_, i): Op => ({ o: 'take', k: `lim|u${i}`, n: 1, p: p1 }));
  const once = request(shared);
  const distinct = request(shared.map((op) => ({ ...op, p: { ...p1 } })));
  assert.ok(distinct.length - once.length >= 49 * 25, `${once.length} bytes shared, ${distinct.length} distinct`);
  const back = parseRequest(once);
  assert.ok(back !== undefined);
  assert.deepEqual(back.ops, shared);
});

test('every result decodes to what was encoded', () => {
  const res: OpResult[] = [
    { ok: true, rem: 299, cur: 300, wait: 0 },
    { ok: false, rem: 0, cur: 0.5, wait: 1234.5 },
    { s: null },
    { s: null, keep: true },
    { s: { available: 3.5, fillAgoMs: 12 } },
    { s: { available: 1, fillAgoMs: 0 }, keep: false },
    { rem: 42.5 },
    { done: true },
    { err: 'Error: boom ü' },
  ];
  assert.deepEqual(parseResponse(response(res, 9)), { id: 9, res });
  assert.deepEqual(parseResponse(response([], 1)), { id: 1, res: [] });
});

test('malformed request frames are refused, never thrown', () => {
  const good = request([{ o: 'take', k: 'lim|a', n: 1, p: p1 }]);
  const bad = (mutate: (b: Buffer) => Buffer): Buffer => mutate(Buffer.from(good));
  // layout of `good`: version(1) id(4) count(2) code(1) keylen(2) key(5) n(8) paramsIdx(2) capacity(8) fill(8) interval(8) continuous(1)
  const at = { count: 5, code: 7, keyLen: 8, n: 15, idx: 23, capacity: 25, interval: 41, continuous: 49 };
  const cases: Array<[string, Buffer]> = [
    ['empty', Buffer.alloc(0)],
    ['another version', bad((b) => (b.writeUInt8(OPS_PROTOCOL_VERSION + 1, 0), b))],
    ['truncated', good.subarray(0, good.length - 1)],
    ['trailing bytes', Buffer.concat([good, Buffer.from([0])])],
    ['more operations than sent', bad((b) => (b.writeUInt16LE(2, at.count), b))],
    ['over MAX_BATCH', bad((b) => (b.writeUInt16LE(MAX_BATCH + 1, at.count), b))],
    ['unknown operation', bad((b) => (b.writeUInt8(99, at.code), b))],
    ['empty key', request([{ o: 'read', k: 'a' }]).fill(0, 8, 10).subarray(0, 10)],
    ['negative n', bad((b) => (b.writeDoubleLE(-1, at.n), b))],
    ['NaN n', bad((b) => (b.writeDoubleLE(NaN, at.n), b))],
    ['infinite capacity', bad((b) => (b.writeDoubleLE(Infinity, at.capacity), b))],
    ['interval 0', bad((b) => (b.writeDoubleLE(0, at.interval), b))],
    ['continuousFill 2', bad((b) => (b.writeUInt8(2, at.continuous), b))],
    ['a parameter set index ahead of the sets sent', bad((b) => (b.writeUInt16LE(1, at.idx), b))],
  ];
  for (const [name, bytes] of cases) assert.equal(parseRequest(bytes), undefined, name);
  // a key over MAX_KEY characters
  const long = Buffer.concat([Buffer.from([OPS_PROTOCOL_VERSION, 1, 0, 0, 0, 1, 0, 3]), Buffer.from([MAX_KEY + 1, (MAX_KEY + 1) >> 8].map((x) => x & 0xff)), Buffer.alloc(MAX_KEY + 1, 0x61)]);
  assert.equal(parseRequest(long), undefined, 'key too long');
  assert.ok(parseRequest(Buffer.concat([long.subarray(0, 8), Buffer.from([MAX_KEY & 0xff, MAX_KEY >> 8]), Buffer.alloc(MAX_KEY, 0x61)])) !== undefined, 'key of MAX_KEY');
});

test('malformed response frames are refused, never thrown', () => {
  const good = response([{ ok: true, rem: 1, cur: 2, wait: 0 }]);
  const cases: Array<[string, Buffer]> = [
    ['empty', Buffer.alloc(0)],
    ['another version', Buffer.concat([Buffer.from([9]), good.subarray(1)])],
    ['truncated', good.subarray(0, good.length - 3)],
    ['trailing bytes', Buffer.concat([good, Buffer.from([4])])],
    ['unknown tag', Buffer.concat([good.subarray(0, 7), Buffer.from([77])])],
    ['ok of 2', Buffer.concat([good.subarray(0, 8), Buffer.from([2]), good.subarray(9)])],
    ['snapshot flags over 7', Buffer.concat([good.subarray(0, 7), Buffer.from([2, 8])])],
  ];
  for (const [name, bytes] of cases) assert.equal(parseResponse(bytes), undefined, name);
});

test('arbitrary bytes and every truncation of a good frame never throw out of the parsers', () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
    const b = Buffer.from(bytes);
    parseRequest(b);
    parseResponse(b);
  }), { numRuns: 2000 });
  const good = request(ALL_OPS);
  for (let n = 0; n < good.length; n++) assert.equal(parseRequest(good.subarray(0, n)), undefined, `first ${n} bytes`);
  const goodRes = response([{ ok: true, rem: 1, cur: 2, wait: 0 }, { s: { available: 1, fillAgoMs: 2 }, keep: true }, { err: 'x' }]);
  for (let n = 0; n < goodRes.length; n++) assert.equal(parseResponse(goodRes.subarray(0, n)), undefined, `first ${n} bytes`);
});

test('random batches decode to what was encoded', () => {
  const amount = fc.double({ min: 0, max: 1e15, noNaN: true });
  const params = fc.record({ capacity: amount, fillAmount: amount, intervalMs: fc.double({ min: 0.001, max: 1e9, noNaN: true }), continuousFill: fc.boolean() });
  const key = fc.string({ minLength: 1, maxLength: MAX_KEY, unit: 'binary' });
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ o: fc.constantFrom('take' as const, 'give' as const, 'consume' as const), k: key, n: amount, p: params }),
    fc.record({ o: fc.constantFrom('read' as const, 'pull' as const), k: key }),
    fc.record({ o: fc.constantFrom('replicate' as const, 'handover' as const), k: key, s: fc.record({ available: amount, fillAgoMs: amount }), p: params }),
    fc.constant<Op>({ o: 'ping' }),
  );
  fc.assert(fc.property(fc.array(op, { maxLength: 30 }), fc.nat({ max: 0xffffffff }), (ops, id) => {
    const back = parseRequest(request(ops, id));
    // a lone surrogate travels as U+FFFD (UTF-8 cannot hold it)
    const norm = (o: Op): Op => ('k' in o ? { ...o, k: Buffer.from(o.k, 'utf8').toString('utf8') } : o);
    assert.deepEqual(back, { id, ops: structuredClone(ops.map(norm)) }); // plain objects, as decoded
  }), { numRuns: 100 });
});

test('an operation whose key cannot travel is refused alone; the rest of its batch still goes', () => {
  const b = new FrameBuilder(64);
  const e = new RequestEncoder(b);
  e.begin();
  e.add({ o: 'take', k: 'lim|a', n: 1, p: p1 });
  assert.throws(() => e.add({ o: 'take', k: 'y'.repeat(MAX_KEY + 1), n: 1, p: p1 }), RangeError);
  assert.throws(() => e.add({ o: 'read', k: '' }), RangeError);
  e.add({ o: 'ping' });
  e.finish(3);
  assert.deepEqual(parseRequest(new FrameDecoder().push(b.take())[0]), { id: 3, ops: [{ o: 'take', k: 'lim|a', n: 1, p: p1 }, { o: 'ping' }] });
});

test('frames built back to back split into the same frames; one over the bound throws and is dropped', () => {
  const b = new FrameBuilder(8, 100);
  b.begin();
  b.str('first');
  b.end();
  b.begin();
  b.f64(1.5);
  b.u32(7);
  b.end();
  b.begin();
  for (let i = 0; i < 20; i++) b.f64(i);
  assert.throws(() => b.end(), FrameTooLargeError);
  const frames = new FrameDecoder().push(b.take());
  assert.equal(frames.length, 2);
  assert.equal(frames[0].subarray(2).toString(), 'first');
  assert.equal(frames[1].readDoubleLE(0), 1.5);
  assert.equal(frames[1].readUInt32LE(8), 7);
  assert.equal(b.length, 0);
});
