import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameError, FrameReader, frameOf } from './grpc-frames.js';

function read(reader: FrameReader, chunks: Buffer[]): string[] {
  const out: string[] = [];
  for (const c of chunks) reader.push(c, (body) => out.push(body.toString()));
  return out;
}

test('a message is its 5-byte prefix (flag 0, big-endian length) and its bytes', () => {
  assert.deepEqual([...frameOf(Buffer.from('abc'))], [0, 0, 0, 0, 3, 97, 98, 99]);
  assert.deepEqual([...frameOf(new Uint8Array(0))], [0, 0, 0, 0, 0]);
});

test('messages split across chunks at every byte are read whole, in order', () => {
  const wire = Buffer.concat([frameOf(Buffer.from('first')), frameOf(Buffer.from('')), frameOf(Buffer.from('third message'))]);
  const reader = new FrameReader();
  const chunks = [...wire].map((b) => Buffer.from([b]));
  assert.deepEqual(read(reader, chunks), ['first', '', 'third message']);
  assert.equal(reader.held, 0);
});

test('several messages in one chunk, and one cut in two, are all read', () => {
  const wire = Buffer.concat([frameOf(Buffer.from('a')), frameOf(Buffer.from('bb')), frameOf(Buffer.from('ccc'))]);
  const reader = new FrameReader();
  assert.deepEqual(read(reader, [wire.subarray(0, 15)]), ['a', 'bb']);
  assert.equal(reader.held, 2);
  assert.deepEqual(read(reader, [wire.subarray(15)]), ['ccc']);
});

test('a compressed message and one over the size limit are FrameErrors with their codes', () => {
  const compressed = Buffer.from([1, 0, 0, 0, 1, 65]);
  assert.throws(() => new FrameReader().push(compressed, () => undefined), (e: unknown) => e instanceof FrameError && e.code === 'compressed');
  const big = Buffer.from([0, 0, 0, 0, 11]);
  assert.throws(() => new FrameReader(10).push(big, () => undefined), (e: unknown) => e instanceof FrameError && e.code === 'too_large');
});

test('a large message in many chunks is read whole once its last chunk arrives', () => {
  const body = Buffer.alloc(1 << 20, 7);
  const wire = frameOf(body);
  const reader = new FrameReader();
  const seen: Buffer[] = [];
  for (let at = 0; at < wire.length; at += 16_384) {
    reader.push(wire.subarray(at, at + 16_384), (b) => seen.push(Buffer.from(b)));
    if (at + 16_384 < wire.length) assert.equal(seen.length, 0);
  }
  assert.equal(seen.length, 1);
  assert.ok((seen[0] as Buffer).equals(body));
  assert.equal(reader.held, 0);
});

test('an over-limit length is refused as soon as its split prefix is whole, before its body', () => {
  const reader = new FrameReader(10);
  reader.push(Buffer.from([0, 0]), () => assert.fail('no message'));
  assert.throws(() => reader.push(Buffer.from([0, 0, 11]), () => undefined), (e: unknown) => e instanceof FrameError && e.code === 'too_large');
  const compressed = new FrameReader();
  compressed.push(Buffer.from([1]), () => assert.fail('no message'));
  assert.throws(() => compressed.push(Buffer.from([0, 0, 0, 1, 65]), () => undefined), (e: unknown) => e instanceof FrameError && e.code === 'compressed');
});
