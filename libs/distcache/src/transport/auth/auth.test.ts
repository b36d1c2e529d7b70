import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFrame } from '../frame.js';
import { Keyring, parseKeys } from './keyring.js';
import { PacketSealer } from './packet-seal.js';
import { HelloVerifier, clientHello } from './ops-channel.js';
import { ReplayWindow } from './replay-window.js';

const A = Buffer.from('key-a-0123456789abcdef');
const B = Buffer.from('key-b-0123456789abcdef');
const NOW = 1_800_000_000_000;

test('parseKeys: lines or commas, comments and blanks skipped; a short key is refused without being shown', () => {
  assert.deepEqual(parseKeys('# rotated 2026-11\nkey-a-0123456789abcdef\n\n key-b-0123456789abcdef \n').map(String), [String(A), String(B)]);
  assert.deepEqual(parseKeys('key-a-0123456789abcdef,key-b-0123456789abcdef').length, 2);
  assert.throws(() => parseKeys('key-a-0123456789abcdef\nshort-secret'), (e: Error) => /key 2 has 12 bytes/.test(e.message) && !e.message.includes('short-secret'));
  assert.throws(() => new Keyring([]), /at least one key/);
});

test('a sealed packet opens once with the same key, and with a ring that lists it second (rotation)', () => {
  const out = new PacketSealer(new Keyring([A]));
  const p = out.seal(Buffer.from('{"hello":1}'), NOW);
  const same = new PacketSealer(new Keyring([A]));
  const r = same.open(p, NOW + 10);
  assert.ok(r.ok);
  assert.equal(String(r.payload), '{"hello":1}');
  assert.deepEqual(same.open(p, NOW + 20), { ok: false, reason: 'replay' });
  const rotated = new PacketSealer(new Keyring([B, A]));
  assert.ok(rotated.open(p, NOW).ok);
  assert.deepEqual(new PacketSealer(new Keyring([B])).open(p, NOW), { ok: false, reason: 'auth' });
});

test('a packet changed in any byte, unsigned, short or stamped outside the window is dropped', () => {
  const s = new PacketSealer(new Keyring([A]), 30_000);
  const p = s.seal(Buffer.from('{"m":"ping"}'), NOW);
  for (let i = 0; i < p.length; i += 3) {
    const bad = Buffer.from(p);
    bad[i] ^= 1;
    assert.equal(new PacketSealer(new Keyring([A])).open(bad, NOW).ok, false, `byte ${i}`);
  }
  assert.deepEqual(s.open(Buffer.from('{"p":"sluice-ml"}'), NOW), { ok: false, reason: 'auth' });
  assert.deepEqual(s.open(Buffer.alloc(0), NOW), { ok: false, reason: 'auth' });
  assert.deepEqual(new PacketSealer(new Keyring([A]), 30_000).open(p, NOW + 31_000), { ok: false, reason: 'stale' });
  assert.deepEqual(new PacketSealer(new Keyring([A]), 30_000).open(p, NOW - 31_000), { ok: false, reason: 'stale' });
});

test('an operations hello: accepted once, refused with another key, replayed, or stale', () => {
  const v = new HelloVerifier(new Keyring([A]));
  const { hello } = clientHello(new Keyring([A]), NOW);
  assert.ok(v.accept(hello, NOW).ok);
  assert.deepEqual(v.accept(hello, NOW + 1), { ok: false, reason: 'replay' });
  assert.deepEqual(v.accept(clientHello(new Keyring([B]), NOW).hello, NOW), { ok: false, reason: 'auth' });
  assert.deepEqual(v.accept(clientHello(new Keyring([A]), NOW - 60_000).hello, NOW), { ok: false, reason: 'stale' });
  assert.deepEqual(v.accept(Buffer.from('hello'), NOW), { ok: false, reason: 'auth' });
  assert.ok(new HelloVerifier(new Keyring([B, A])).accept(clientHello(new Keyring([A, B]), NOW).hello, NOW).ok, 'rotation: a ring that lists the signer\'s key');
});

test('an operations channel: frames verify in order each way; changed, replayed or reflected ones do not', () => {
  const keys = new Keyring([A]);
  const { hello, channel: client } = clientHello(keys, NOW);
  const h = new HelloVerifier(keys).accept(hello, NOW);
  assert.ok(h.ok);
  const server = h.channel;
  const sealed = client.sealFrames(Buffer.concat([encodeFrame(Buffer.from('one')), encodeFrame(Buffer.from('two'))]));
  const frames = [sealed.subarray(4, 4 + sealed.readUInt32BE(0))];
  const second = 4 + sealed.readUInt32BE(0);
  frames.push(sealed.subarray(second + 4, second + 4 + sealed.readUInt32BE(second)));
  assert.equal(String(server.openFrame(frames[0])), 'one');
  assert.equal(server.openFrame(frames[0]), undefined, 'replayed');
  const changed = Buffer.from(frames[1]);
  changed[0] ^= 1;
  assert.equal(server.openFrame(changed), undefined, 'changed');
  assert.equal(String(server.openFrame(frames[1])), 'two');
  const back = server.sealFrames(encodeFrame(Buffer.from('answer')));
  assert.equal(String(client.openFrame(back.subarray(4))), 'answer');
  const reflected = client.sealFrames(encodeFrame(Buffer.from('answer')));
  assert.equal(client.openFrame(reflected.subarray(4)), undefined, 'a frame sent back the way it came');
});

test('the replay window stays bounded, forgetting the oldest sightings first', () => {
  const w = new ReplayWindow(30_000, 100);
  for (let i = 0; i < 1000; i++) assert.equal(w.check(`id${i}`, NOW, NOW), 'ok');
  assert.ok(w.size <= 100, String(w.size));
  assert.equal(w.check('id999', NOW, NOW), 'replay');
});
