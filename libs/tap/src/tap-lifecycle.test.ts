import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { silentLogger } from './logger.js';
import { startTap } from './tap.js';
import { readAll, send, startTestAgent, startUpstream, TEST_OPTIONS } from './testing/fixture.js';

test('admin address: /metrics in Prometheus text, /healthz, 404 and 405', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t);
  const tap = await startTap({ ...TEST_OPTIONS, upstream: { host: '127.0.0.1', port: upstream.port }, agent: agent.address }, { logger: silentLogger });
  t.after(() => tap.shutdown({ deadlineMs: 100 }));
  await send(`http://127.0.0.1:${tap.address.port}/`);
  const admin = `http://127.0.0.1:${tap.adminAddress.port}`;
  const metrics = await send(`${admin}/metrics`);
  assert.equal(metrics.status, 200);
  assert.match(String(metrics.headers['content-type']), /^text\/plain/);
  assert.match(metrics.text, /^tap_requests_total\{decision="accepted"\} 1$/m);
  assert.match(metrics.text, /^tap_fail_open_total\{reason="deadline"\} 0$/m);
  assert.match(metrics.text, /^tap_check_duration_seconds_count 1$/m);
  assert.match(metrics.text, /^tap_upstream_errors_total\{reason="connect"\} 0$/m);
  const health = await send(`${admin}/healthz`);
  assert.equal(health.status, 200);
  assert.deepEqual(JSON.parse(health.text), { status: 'SERVING' });
  assert.equal((await send(`${admin}/nope`)).status, 404);
  assert.equal((await send(`${admin}/metrics`, { method: 'POST' })).status, 405);
});

test('shutdown: in-flight requests finish, keep-alive connections are closed, new connections refused', async (t) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  let arrived: () => void = () => {};
  const inFlight = new Promise<void>((resolve) => { arrived = resolve; });
  const upstream = await startUpstream(t, (req, res) => {
    if (req.url === '/slow') {
      arrived();
      void released.then(() => res.end('finished'));
    } else res.end('ok');
  });
  const agent = await startTestAgent(t);
  const registry = new Registry();
  const tap = await startTap({ ...TEST_OPTIONS, upstream: { host: '127.0.0.1', port: upstream.port }, agent: agent.address }, { logger: silentLogger, registry });
  const base = `http://127.0.0.1:${tap.address.port}`;
  const admin = `http://127.0.0.1:${tap.adminAddress.port}`;
  const keepAlive = new http.Agent({ keepAlive: true });
  t.after(() => keepAlive.destroy());

  const slow = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    http.get(`${base}/slow`, { agent: keepAlive }, (res) => {
      readAll(res).then((b) => resolve({ status: res.statusCode ?? 0, body: b.toString(), connection: res.headers.connection }), reject);
    }).on('error', reject);
  });
  await inFlight;
  const started = Date.now();
  const stopped = tap.shutdown({ deadlineMs: 5000 });
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Draining: health says so (the admin server stays up until the end), new connections are refused.
  assert.equal((await send(`${admin}/healthz`)).status, 503);
  await assert.rejects(send(`${base}/`), /ECONNREFUSED/);
  release();
  const done = await slow;
  assert.deepEqual(done, { status: 200, body: 'finished', connection: 'close' });
  await stopped;
  assert.ok(Date.now() - started < 4000, 'shutdown did not wait for its deadline once the request was done');
  await assert.rejects(send(`${admin}/healthz`), /ECONNREFUSED/);
});

test('shutdown: requests still running at the deadline are cut', async (t) => {
  const upstream = await startUpstream(t, () => { /* never answers */ });
  const agent = await startTestAgent(t);
  const tap = await startTap({ ...TEST_OPTIONS, upstream: { host: '127.0.0.1', port: upstream.port }, agent: agent.address }, { logger: silentLogger });
  const pending = send(`http://127.0.0.1:${tap.address.port}/hang`);
  pending.catch(() => undefined); // it may fail before shutdown resolves; asserted below
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  await tap.shutdown({ deadlineMs: 200 });
  const took = Date.now() - started;
  assert.ok(took >= 150 && took < 2000, `shutdown took ${took} ms`);
  await assert.rejects(pending);
});

test('startTap rejects, having closed what it opened, when the port is taken', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t);
  const first = await startTap({ ...TEST_OPTIONS, upstream: { host: '127.0.0.1', port: upstream.port }, agent: agent.address }, { logger: silentLogger });
  t.after(() => first.shutdown({ deadlineMs: 100 }));
  await assert.rejects(
    startTap({ ...TEST_OPTIONS, admin: { host: '127.0.0.1', port: first.adminAddress.port }, upstream: { host: '127.0.0.1', port: upstream.port }, agent: agent.address }, { logger: silentLogger }),
    /EADDRINUSE/,
  );
});
