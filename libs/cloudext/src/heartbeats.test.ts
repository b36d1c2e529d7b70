import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { DEFAULT_GRPC_CLIENT_CONFIG, DEFAULT_HTTP_CLIENT_CONFIG, NO_PROXY_CONFIG } from '@sluice/clients';
import type { CloudExtensionConfig } from '@sluice/config';
import { serviceClient } from '@sluice/proto';
import { Registry } from 'prom-client';
import { createHeartbeats, heartbeatsOn } from './heartbeats.js';
import { grpcTarget, httpReportUrl, isHttpEndpoint } from './transport.js';
import { silentLogger, type Logger } from '@sluice/telemetry/logger';

const KEY = 'key-abc-123';

function cloud(endpoint: string, extra: Partial<CloudExtensionConfig> = {}): CloudExtensionConfig {
  return {
    api_key: KEY, controller_id: 'c1', disable_local_otel_pipeline: false, endpoint, heartbeat_interval: '100ms', installation_mode: 'LINUX_BARE_METAL',
    client: {
      http: { ...DEFAULT_HTTP_CLIENT_CONFIG },
      grpc: { ...DEFAULT_GRPC_CLIENT_CONFIG, insecure: true, backoff: { base_delay: '50ms', max_delay: '200ms', multiplier: 2, jitter: 0 } },
    },
    ...extra,
  };
}

function logs(): { lines: string[]; logger: Logger } {
  const lines: string[] = [];
  return { lines, logger: { ...silentLogger, info: (m, meta) => lines.push(`${m} ${JSON.stringify(meta)}`), warn: (m, meta) => lines.push(`${m} ${JSON.stringify(meta)}`) } };
}

const state = {
  policies: () => [{ name: 'b', hash: 'h2' }, { name: 'a', hash: 'h1' }, { name: 'a', hash: 'h1' }],
  services: () => [{ name: 'checkout', control_points: ['ingress'] }],
};

interface Hit { atMs: number; key: string | undefined; body: Record<string, unknown> }

/** A local HTTP receiver answering `status()` for each heartbeat. */
async function receiver(t: TestContext, status: () => number): Promise<{ url: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      assert.equal(req.url, '/base/v1/cloudext/report');
      hits.push({ atMs: Date.now(), key: req.headers['x-api-key'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown> });
      const code = status();
      res.writeHead(code).end(code === 200 ? '{}' : `unavailable, your key was ${KEY}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/base/`, hits };
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('endpoints: http(s) addresses go over HTTP to <path>/v1/cloudext/report, others over gRPC', () => {
  assert.equal(isHttpEndpoint('https://cloud.example/api'), true);
  assert.equal(isHttpEndpoint('cloud.example:443'), false);
  assert.equal(httpReportUrl('https://cloud.example/api/'), 'https://cloud.example/api/v1/cloudext/report');
  assert.equal(httpReportUrl('http://127.0.0.1:8080'), 'http://127.0.0.1:8080/v1/cloudext/report');
  assert.equal(grpcTarget('cloud.example'), 'cloud.example:443');
  assert.equal(grpcTarget('127.0.0.1:9000'), '127.0.0.1:9000');
  assert.equal(heartbeatsOn({ api_key: '' }), false);
  assert.equal(heartbeatsOn({ api_key: 'k' }), true);
});

test('HTTP heartbeats at the interval, with the identity, policies, services and the key header', async (t) => {
  const rx = await receiver(t, () => 200);
  const { logger } = logs();
  const registry = new Registry();
  const hb = createHeartbeats({
    cloud: cloud(rx.url), proxy: NO_PROXY_CONFIG, state, logger, registry,
    identity: { service: 'sluice-agent', version: '1.2.3', agentGroup: 'g1', hostname: 'host-a' },
  });
  hb.start();
  t.after(() => hb.shutdown());
  await until(() => rx.hits.length >= 3);
  await hb.shutdown();
  const count = rx.hits.length;
  const first = rx.hits[0];
  assert.equal(first.key, KEY);
  assert.equal(first.body.service, 'sluice-agent');
  assert.equal(first.body.version, '1.2.3');
  assert.equal(first.body.hostname, 'host-a');
  assert.equal(first.body.agent_group, 'g1');
  assert.equal(first.body.controller_id, 'c1');
  assert.equal(first.body.installation_mode, 'LINUX_BARE_METAL');
  assert.deepEqual(first.body.policies, [{ name: 'a', hash: 'h1' }, { name: 'b', hash: 'h2' }]);
  assert.deepEqual(first.body.services, [{ name: 'checkout', control_points: ['ingress'] }]);
  assert.match(String(first.body.sent_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  assert.match(String(first.body.instance_id), /^[0-9a-f-]{36}$/);
  assert.deepEqual(rx.hits.map((h) => h.body.sequence), rx.hits.map((_, i) => i + 1));
  assert.equal(new Set(rx.hits.map((h) => h.body.instance_id)).size, 1);
  for (let i = 1; i < rx.hits.length; i++) assert.ok(rx.hits[i].atMs - rx.hits[i - 1].atMs >= 80, 'not sooner than the interval');
  assert.equal(hb.delivered(), count);
  assert.match(await registry.metrics(), new RegExp(`cloudext_heartbeats_total\\{result="delivered"\\} ${count}`));
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(rx.hits.length, count, 'nothing after shutdown');
});

test('a failing heartbeat is retried with backoff until delivered; failure and recovery logged once, never the key', async (t) => {
  let n = 0;
  const rx = await receiver(t, () => (++n <= 3 ? 503 : 200));
  const { lines, logger } = logs();
  const hb = createHeartbeats({ cloud: cloud(rx.url, { heartbeat_interval: '10s' }), proxy: NO_PROXY_CONFIG, state, logger, identity: { service: 'sluice-agent', version: '1', agentGroup: 'g' } });
  hb.start();
  t.after(() => hb.shutdown());
  await until(() => hb.delivered() === 1);
  assert.equal(rx.hits.length, 4, 'three failures then one delivery, well before the 10 s interval');
  // Delays 50, 100, 200 ms (multiplier 2, no jitter).
  const gaps = rx.hits.slice(1).map((h, i) => h.atMs - rx.hits[i].atMs);
  assert.ok(gaps[0] >= 40 && gaps[1] >= 90 && gaps[2] >= 180, JSON.stringify(gaps));
  assert.equal(rx.hits[3].body.sequence, 1, 'the sequence counts delivered heartbeats');
  assert.equal(lines.filter((l) => l.startsWith('cloudext heartbeat failed')).length, 1);
  assert.equal(lines.filter((l) => l.startsWith('cloudext heartbeats delivered again')).length, 1);
  assert.match(lines.join('\n'), /HTTP 503: unavailable, your key was \*\*\*\*/);
  assert.ok(!lines.join('\n').includes(KEY));
});

test('gRPC heartbeats carry the key as x-api-key metadata', async (t) => {
  const got: Array<{ key: unknown; req: Record<string, unknown> }> = [];
  const server = new grpc.Server();
  server.addService(serviceClient('cloudExtension').service, {
    Report: (call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      got.push({ key: call.metadata.get('x-api-key')[0], req: call.request });
      cb(null, {});
    },
  });
  const port = await new Promise<number>((res, rej) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))));
  t.after(() => server.forceShutdown());
  const { logger } = logs();
  const hb = createHeartbeats({ cloud: cloud(`127.0.0.1:${port}`), proxy: NO_PROXY_CONFIG, state, logger, identity: { service: 'sluice-controller', version: '1', agentGroup: '' } });
  hb.start();
  t.after(() => hb.shutdown());
  await until(() => got.length >= 2);
  await hb.shutdown();
  assert.equal(got[0].key, KEY);
  assert.equal(got[0].req.service, 'sluice-controller');
  assert.equal(got[0].req.controller_id, 'c1');
  assert.equal(Number(got[1].req.sequence), 2);
  assert.deepEqual((got[0].req.policies as unknown[]).length, 2);
});
