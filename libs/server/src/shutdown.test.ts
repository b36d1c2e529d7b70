import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import type { Registry } from 'prom-client';
import { EchoClient, callEcho, defaultConfig, startEchoServer } from './test-support.js';

/** Until the server has started `n` gRPC calls (a fixed sleep is not enough on a loaded machine). */
async function grpcCallsStarted(registry: Registry, n: number): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 10))) {
    const values = (await registry.getSingleMetric('grpcserver_started_total')?.get())?.values ?? [];
    if (values.reduce((sum, v) => sum + v.value, 0) >= n) return;
  }
  throw new Error(`the server did not start ${n} gRPC calls within 10 s`);
}

test('shutdown lets in-flight HTTP requests and gRPC calls finish, then stops accepting', async (t) => {
  let arrived!: () => void;
  const httpArrived = new Promise<void>((r) => { arrived = r; });
  const s = await startEchoServer(defaultConfig(), (server) => {
    server.app.get('/slow', (_req, res) => { arrived(); setTimeout(() => res.json({ done: true }), 300); });
  });
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(() => client.close());
  await callEcho(client, { message: 'warm' });
  const http = fetch(`${s.base}/slow`);
  const rpc = callEcho(client, { message: 'late', delay_ms: 300 });
  await Promise.all([httpArrived, grpcCallsStarted(s.registry, 2)]);
  const stopped = s.server.shutdown({ deadlineMs: 5000 });
  const res = await http;
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { done: true });
  assert.equal((await rpc).message, 'late');
  await stopped;
  await assert.rejects(fetch(`${s.base}/hello`));
});

test('shutdown cuts what is left at the deadline', async (t) => {
  let arrived!: () => void;
  const httpArrived = new Promise<void>((r) => { arrived = r; });
  const s = await startEchoServer(defaultConfig(), (server) => {
    server.app.get('/forever', () => arrived());
  });
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(() => client.close());
  const http = fetch(`${s.base}/forever`).then(() => 'answered', () => 'cut');
  const rpc = callEcho(client, { message: 'x', delay_ms: 10_000 }, 20_000).then(() => 'answered', (e: grpc.ServiceError) => `cut ${e.code}`);
  await Promise.all([httpArrived, grpcCallsStarted(s.registry, 1)]);
  const started = Date.now();
  await s.server.shutdown({ deadlineMs: 300 });
  const took = Date.now() - started;
  assert.ok(took < 2000, `shutdown took ${took} ms`);
  assert.equal(await http, 'cut');
  assert.match(await rpc, /^cut /);
});
