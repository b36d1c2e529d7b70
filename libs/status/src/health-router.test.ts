import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { healthRouter } from './health-router.js';
import { StatusRegistry } from './status-registry.js';

async function serve(registry: StatusRegistry): Promise<{ base: string; close: () => Promise<void> }> {
  const app = express();
  app.use(healthRouter(registry));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('liveness and readiness answer 200 when healthy and 503 naming the failing jobs', async (t) => {
  const registry = new StatusRegistry();
  const { base, close } = await serve(registry);
  t.after(close);
  registry.set('liveness/service/event_loop', { healthy: true, message: 'fine' });
  registry.set('readiness/service/listen', { healthy: true });

  let res = await fetch(`${base}/v1/status/system/liveness`);
  assert.equal(res.status, 200);
  const ok = await res.json() as { status: string; checks: Record<string, { message: string }> };
  assert.equal(ok.status, 'healthy');
  assert.equal(ok.checks['liveness/service/event_loop'].message, 'fine');

  registry.set('readiness/service/db', { healthy: false, message: 'timeout after 5s' });
  res = await fetch(`${base}/v1/status/system/readiness`);
  assert.equal(res.status, 503);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const bad = await res.json() as { code: number; status: string; message: string; failing: Array<{ path: string; message: string }> };
  assert.equal(bad.code, 14);
  assert.equal(bad.status, 'unhealthy');
  assert.match(bad.message, /readiness\/service\/db: timeout after 5s/);
  assert.deepEqual(bad.failing, [{ path: 'readiness/service/db', message: 'timeout after 5s' }]);

  res = await fetch(`${base}/v1/status/system/liveness`);
  assert.equal(res.status, 200, 'a readiness failure does not fail liveness');
});

test('/healthz follows liveness', async (t) => {
  const registry = new StatusRegistry();
  const { base, close } = await serve(registry);
  t.after(close);
  let res = await fetch(`${base}/healthz`);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), 'ok');
  registry.set('liveness/watchdog/heap', { healthy: false, message: 'past last watermark' });
  res = await fetch(`${base}/healthz`);
  assert.equal(res.status, 503);
  assert.match(await res.text(), /liveness\/watchdog\/heap: past last watermark/);
});
