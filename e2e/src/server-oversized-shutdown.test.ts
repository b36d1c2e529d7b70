// A gRPC message over the size limit is refused (RESOURCE_EXHAUSTED), and it leaves nothing behind for
// shutdown to wait on: the next SIGTERM still exits within a couple of seconds and frees the port.
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { test, type TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { startAgent, startController, type SluiceProcess } from './support/processes.js';

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A unary call of `method` whose request is `bytes` as they are (the server refuses it for its size before decoding). */
function rawCall(client: grpc.Client, method: string, bytes: Buffer): Promise<unknown> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(method, (b: Buffer) => b, (b: Buffer) => b, bytes, { deadline: Date.now() + 10_000 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/**
 * A raw HTTP/2 client sends a gRPC frame announcing more than the limit, writes part of it and
 * neither finishes the request nor closes the session (as a slow or careless client would).
 */
async function rawOversized(t: TestContext, proc: SluiceProcess, method: string): Promise<number | undefined> {
  const session = http2.connect(proc.base);
  t.after(() => session.destroy());
  session.on('error', () => {});
  const stream = session.request({ ':method': 'POST', ':path': method, 'content-type': 'application/grpc', te: 'trailers' });
  stream.on('error', () => {});
  const header = Buffer.alloc(5);
  header.writeUInt32BE(64 << 20, 1);
  stream.write(header);
  stream.write(Buffer.alloc(1 << 20, 0x0a));
  return new Promise((resolve) => {
    stream.on('response', (h) => resolve(Number(h['grpc-status'])));
    stream.on('trailers', (h) => resolve(Number(h['grpc-status'])));
    stream.on('close', () => resolve(undefined));
    setTimeout(() => resolve(undefined), 5000);
  });
}

async function oversizedThenSigterm(t: TestContext, proc: SluiceProcess, method: string): Promise<void> {
  const client = new grpc.Client(proc.address, grpc.credentials.createInsecure());
  t.after(() => client.close());
  await assert.rejects(rawCall(client, method, Buffer.alloc(5 << 20, 0x0a)), (err: grpc.ServiceError) => {
    assert.equal(err.code, grpc.status.RESOURCE_EXHAUSTED, err.message);
    return true;
  });
  const rawStatus = await rawOversized(t, proc, method);
  assert.equal(rawStatus, grpc.status.RESOURCE_EXHAUSTED, "the raw client is refused too");
  // The channel and the raw session stay connected, as a client's would.
  const port = Number(proc.address.split(':').at(-1));
  const started = Date.now();
  proc.child.kill('SIGTERM');
  const exit = await proc.exited;
  const took = Date.now() - started;
  assert.deepEqual(exit, { code: 0, signal: null }, proc.output());
  console.log(`exited ${took} ms after SIGTERM`);
  assert.ok(took < 5000, `exited ${took} ms after SIGTERM (target: a couple of seconds)`);
  assert.ok(await portFree(port), `port ${port} is free`);
}

test('agent: an oversized gRPC message, then SIGTERM: exits within seconds and the port is free', { timeout: 120_000 }, async (t) => {
  await oversizedThenSigterm(t, await startAgent(t, { ready: 'live' }), '/sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP/CheckHTTP');
});

test('controller: an oversized gRPC message, then SIGTERM: exits within seconds and the port is free', { timeout: 120_000 }, async (t) => {
  await oversizedThenSigterm(t, await startController(t, { ready: 'live' }), '/sluice.policies.v1.PolicyService/UpsertPolicy');
});
