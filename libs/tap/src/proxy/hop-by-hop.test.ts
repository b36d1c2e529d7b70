import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acceptsTrailers, connectionListedHeaders, endToEndHeaders } from './hop-by-hop.js';

test('endToEndHeaders drops the RFC 9110 hop-by-hop headers and the ones Connection names', () => {
  const out = endToEndHeaders({
    connection: 'keep-alive, X-Session-Hop ,close',
    'keep-alive': 'timeout=5',
    te: 'trailers',
    trailer: 'x-sum',
    'transfer-encoding': 'chunked',
    upgrade: 'websocket',
    'proxy-connection': 'keep-alive',
    'proxy-authorization': 'Basic eA==',
    'proxy-authenticate': 'Basic',
    'x-session-hop': '1',
    'x-end-to-end': 'yes',
    'content-type': 'text/plain',
    'set-cookie': ['a=1', 'b=2'],
  });
  assert.deepEqual(out, { 'x-end-to-end': 'yes', 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] });
});

test('connectionListedHeaders reads every Connection value, case-insensitively', () => {
  assert.deepEqual([...connectionListedHeaders(['A, b', ' C '])], ['a', 'b', 'c']);
  assert.equal(connectionListedHeaders(undefined).size, 0);
  assert.equal(connectionListedHeaders(' , ').size, 0);
});

test('acceptsTrailers finds "trailers" among TE codings with parameters', () => {
  assert.equal(acceptsTrailers('gzip;q=0.5, trailers'), true);
  assert.equal(acceptsTrailers('Trailers'), true);
  assert.equal(acceptsTrailers('gzip'), false);
  assert.equal(acceptsTrailers(undefined), false);
});
