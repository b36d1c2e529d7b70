import { test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { startEchoServer, defaultConfig } from './test-support.js';

test('a client that keeps a refused (oversized) stream open does not hold shutdown past the session grace', { timeout: 30_000 }, async (t) => {
  const { server, base } = await startEchoServer(defaultConfig());
  const session = http2.connect(base);
  session.on('error', () => {});
  t.after(() => session.destroy());
  const stream = session.request({ ':method': 'POST', ':path': '/sluice.test.echo.v1.EchoService/Echo', 'content-type': 'application/grpc', te: 'trailers' });
  stream.on('error', () => {});
  const frame = Buffer.alloc(5);
  frame.writeUInt32BE(64 << 20, 1); // announces 64 MiB, over the 4 MiB limit; the request is never finished
  stream.write(frame);
  stream.write(Buffer.alloc(1 << 20, 0x0a));
  const status = await new Promise<string | undefined>((resolve) => stream.once('response', (h) => resolve(String(h['grpc-status']))));
  assert.equal(status, '8', 'RESOURCE_EXHAUSTED');
  const closed = new Promise<void>((resolve) => session.once('close', resolve));
  const started = Date.now();
  await server.shutdown({ deadlineMs: 20_000 });
  const took = Date.now() - started;
  await closed;
  assert.ok(took < 5000, `shutdown took ${took} ms with a deadline of 20 s`);
});
