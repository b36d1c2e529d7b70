import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveListenTarget, splitHostPort } from './listen-address.js';
import { classify, HTTP2_PREFACE } from './protocol-router.js';

test('splitHostPort accepts host:port, :port and [v6%zone]:port', () => {
  assert.deepEqual(splitHostPort(':8080'), { host: '', port: 8080 });
  assert.deepEqual(splitHostPort('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
  assert.deepEqual(splitHostPort('localhost:9000'), { host: 'localhost', port: 9000 });
  assert.deepEqual(splitHostPort('[::1]:8080'), { host: '::1', port: 8080 });
  assert.deepEqual(splitHostPort('[fe80::1%eth0]:8080'), { host: 'fe80::1%eth0', port: 8080 });
});

test('splitHostPort rejects bad addresses with the field named', () => {
  for (const bad of ['8080', 'host:', 'host:99999', 'host:http', '::1:8080', '[::1]8080', '[::1']) {
    assert.throws(() => splitHostPort(bad), (err: Error & { field?: string }) => err.field === 'addr', bad);
  }
});

test('resolveListenTarget: the empty host by network', async () => {
  assert.deepEqual(await resolveListenTarget(':8080', 'tcp'), { host: '::', port: 8080, ipv6Only: false });
  assert.deepEqual(await resolveListenTarget(':8080', 'tcp4'), { host: '0.0.0.0', port: 8080, ipv6Only: false });
  assert.deepEqual(await resolveListenTarget(':8080', 'tcp6'), { host: '::', port: 8080, ipv6Only: true });
  assert.deepEqual(await resolveListenTarget('127.0.0.1:1', 'tcp4'), { host: '127.0.0.1', port: 1, ipv6Only: false });
  await assert.rejects(resolveListenTarget('[::1]:1', 'tcp4'), /not an IPv4 address/);
  await assert.rejects(resolveListenTarget(':1', 'udp'), (err: Error & { field?: string }) => err.field === 'network');
});

test('classify: preface → h2, other text → http1, PRI-but-wrong → refuse, partial → more', () => {
  assert.equal(classify(HTTP2_PREFACE), 'h2');
  assert.equal(classify(Buffer.concat([HTTP2_PREFACE, Buffer.from([0, 0, 0, 4])])), 'h2');
  assert.equal(classify(Buffer.from('GET / HTTP/1.1\r\n')), 'http1');
  assert.equal(classify(Buffer.from('POST')), 'http1');
  assert.equal(classify(Buffer.from('P')), 'more');
  assert.equal(classify(Buffer.from('PRI * HTTP/2')), 'more');
  assert.equal(classify(Buffer.from('PRI * HTTP/1.1\r\n')), 'refuse');
  assert.equal(classify(Buffer.from('PRIX')), 'refuse');
  assert.equal(classify(Buffer.from('PUT /x')), 'http1');
});
