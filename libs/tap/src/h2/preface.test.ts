import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HTTP2_PREFACE, prefaceKind } from './preface.js';

test('the HTTP/2 preface, a prefix of it, and anything else', () => {
  assert.equal(prefaceKind(HTTP2_PREFACE), 'h2');
  assert.equal(prefaceKind(Buffer.concat([HTTP2_PREFACE, Buffer.from([0, 0, 0, 4])])), 'h2');
  assert.equal(prefaceKind(HTTP2_PREFACE.subarray(0, 1)), 'more');
  assert.equal(prefaceKind(HTTP2_PREFACE.subarray(0, 23)), 'more');
  assert.equal(prefaceKind(Buffer.from('POST / HTTP/1.1\r\n')), 'http1');
  assert.equal(prefaceKind(Buffer.from('PRI * HTTP/1.1\r\n')), 'http1');
  assert.equal(prefaceKind(Buffer.from('PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n')), 'http1');
  assert.equal(prefaceKind(Buffer.from([0x16, 0x03, 0x01])), 'http1', 'a TLS hello is not HTTP/2 with prior knowledge');
});
