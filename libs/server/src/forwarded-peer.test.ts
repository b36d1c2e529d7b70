import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePeerHeader, peerHeaderValue } from './forwarded-peer.js';

test('the peer header carries a connection both ways; a Unix socket (no address) gives none', () => {
  const v = peerHeaderValue({ remoteAddress: '::ffff:10.0.0.7', remotePort: 51234, localAddress: '::ffff:10.0.0.1', localPort: 8080 });
  assert.equal(v, '::ffff:10.0.0.7 51234 ::ffff:10.0.0.1 8080');
  assert.deepEqual(parsePeerHeader(v!), { remoteAddress: '::ffff:10.0.0.7', remotePort: 51234, localAddress: '::ffff:10.0.0.1', localPort: 8080 });
  assert.equal(peerHeaderValue({}), undefined);
  assert.equal(peerHeaderValue(undefined), undefined);
});

test('a malformed peer header gives no peer, or drops the parts that are not ports', () => {
  assert.equal(parsePeerHeader(''), undefined);
  assert.equal(parsePeerHeader(' 1 2 3'), undefined);
  assert.deepEqual(parsePeerHeader('10.0.0.7 port 10.0.0.1 99999'), { remoteAddress: '10.0.0.7', remotePort: undefined, localAddress: '10.0.0.1', localPort: undefined });
  assert.deepEqual(parsePeerHeader('10.0.0.7'), { remoteAddress: '10.0.0.7', remotePort: undefined, localAddress: undefined, localPort: undefined });
});
