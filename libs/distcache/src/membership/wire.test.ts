import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodePacket, encodePacket } from './wire.js';
import { FrameDecoder, FrameTooLargeError, encodeFrame } from '../transport/frame.js';

const from = { id: 'a1', gossipAddr: '127.0.0.1:1' };
const upd = { id: 'b', gossipAddr: '127.0.0.1:2', opsAddr: '127.0.0.1:3', incarnation: 5, state: 'suspect' as const };

test('a packet of the group decodes to what was encoded', () => {
  for (const msg of [
    { t: 'ping' as const, seq: 1, target: 'b', gossip: [upd] },
    { t: 'ack' as const, seq: 2, gossip: [] },
    { t: 'ping-req' as const, seq: 3, target: { id: 'b', gossipAddr: 'x:1', opsAddr: 'x:2' }, gossip: [] },
    { t: 'gossip' as const, gossip: [upd] },
    { t: 'sync' as const, reply: true, members: [upd] },
  ]) {
    const d = decodePacket('g1', encodePacket('g1', from, msg));
    assert.deepEqual(d, { ok: true, from, msg });
  }
});

test('another group, another protocol version and malformed packets are dropped with their reason', () => {
  const ping = { t: 'ping' as const, seq: 1, target: 'b', gossip: [] };
  assert.deepEqual(decodePacket('g1', encodePacket('g2', from, ping)), { ok: false, reason: 'foreign_group' });
  const v2 = Buffer.from(JSON.stringify({ p: 'sluice-ml', v: 2, g: 'g1', f: 'a', a: 'x:1', m: ping }));
  assert.deepEqual(decodePacket('g1', v2), { ok: false, reason: 'version' });
  const bad = [
    'not json', '[]', 'null', '{"p":"other"}',
    JSON.stringify({ p: 'sluice-ml', v: 1, g: 'g1', f: '', a: 'x:1', m: ping }),
    JSON.stringify({ p: 'sluice-ml', v: 1, g: 'g1', f: 'a', a: 'x:1', m: { ...ping, seq: -1 } }),
    JSON.stringify({ p: 'sluice-ml', v: 1, g: 'g1', f: 'a', a: 'x:1', m: { ...ping, gossip: [{ ...upd, state: 'zombie' }] } }),
    JSON.stringify({ p: 'sluice-ml', v: 1, g: 'g1', f: 'a', a: 'x:1', m: { t: 'sync', reply: 'yes', members: [] } }),
    JSON.stringify({ p: 'sluice-ml', v: 1, g: 'g1', f: 'a', a: 'x:1', m: { t: 'nope' } }),
    JSON.stringify({ p: 'sluice-ml', v: 1, g: 7, f: 'a', a: 'x:1', m: ping }),
  ];
  for (const b of bad) assert.deepEqual(decodePacket('g1', Buffer.from(b)), { ok: false, reason: 'malformed' }, b);
});

test('arbitrary bytes never throw out of the decoder', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const d = decodePacket('g1', Buffer.from(bytes));
      assert.equal(d.ok, false);
    }),
  );
  fc.assert(fc.property(fc.jsonValue(), (v) => void decodePacket('g1', Buffer.from(JSON.stringify(v)))));
});

test('frames split and joined across chunks come out whole; an oversized one throws', () => {
  const d = new FrameDecoder(100);
  const a = encodeFrame(Buffer.from('hello'));
  const b = encodeFrame(Buffer.from('world!'));
  const all = Buffer.concat([a, b]);
  const got: string[] = [];
  for (let i = 0; i < all.length; i += 3) for (const f of d.push(all.subarray(i, i + 3))) got.push(f.toString());
  assert.deepEqual(got, ['hello', 'world!']);
  assert.throws(() => new FrameDecoder(10).push(encodeFrame(Buffer.alloc(11))), FrameTooLargeError);
});
