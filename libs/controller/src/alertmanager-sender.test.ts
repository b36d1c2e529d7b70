import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { createHttpClient, DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { Registry } from 'prom-client';
import type { PostableAlert } from './alert-book.js';
import { AlertmanagerSender, alertsEndpoint } from './alertmanager-sender.js';
import { silentLogger } from '@sluice/telemetry/logger';

const alert: PostableAlert = {
  labels: { alertname: 'Overloaded', severity: 'warn', policy_name: 'svc' }, annotations: {},
  startsAt: '2026-01-01T12:00:00.000Z', endsAt: '2026-01-01T12:00:05.000Z', generatorURL: 'http://ctl/svc/Overloaded',
};

/** A loopback server answering `status` and recording every request. */
async function server(t: TestContext, status: () => number) {
  const seen: { method: string; url: string; type: string; body: unknown }[] = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', type: req.headers['content-type'] ?? '', body: JSON.parse(body) as unknown });
      res.writeHead(status()).end(status() === 200 ? '' : 'bad alert');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { srv.closeAllConnections(); srv.close(() => r()); }));
  return { seen, base: `http://127.0.0.1:${(srv.address() as AddressInfo).port}` };
}

function client(t: TestContext) {
  const c = createHttpClient({ ...DEFAULT_HTTP_CLIENT_CONFIG, timeout: '2s' });
  t.after(() => c.close());
  return c;
}

async function counter(registry: Registry, name: string, alertmanager: string): Promise<number> {
  const m = await registry.getSingleMetric(name)?.get();
  return m?.values.find((v) => v.labels.alertmanager === alertmanager)?.value ?? 0;
}

test('the endpoint is <base>/api/v2/alerts, keeping a path prefix', () => {
  assert.equal(alertsEndpoint('http://am:9093'), 'http://am:9093/api/v2/alerts');
  assert.equal(alertsEndpoint('http://am:9093/'), 'http://am:9093/api/v2/alerts');
  assert.equal(alertsEndpoint('https://x.example/alertmanager'), 'https://x.example/alertmanager/api/v2/alerts');
});

test('a batch is posted as JSON to every Alertmanager and counted', async (t) => {
  const a = await server(t, () => 200);
  const b = await server(t, () => 200);
  const registry = new Registry();
  const sender = new AlertmanagerSender([a.base, `${b.base}/`], client(t), registry);
  await sender.send([alert, { ...alert, labels: { ...alert.labels, severity: 'crit' } }]);
  for (const s of [a, b]) {
    assert.equal(s.seen.length, 1);
    assert.deepEqual({ method: s.seen[0].method, url: s.seen[0].url, type: s.seen[0].type }, { method: 'POST', url: '/api/v2/alerts', type: 'application/json' });
    assert.equal((s.seen[0].body as PostableAlert[]).length, 2);
    assert.deepEqual((s.seen[0].body as PostableAlert[])[0], alert);
  }
  assert.equal(await counter(registry, 'alerts_sent_total', a.base), 2);
  await sender.send([]);
  assert.equal(a.seen.length, 1, 'an empty batch is not posted');
});

test('an Alertmanager refusing a batch, or unreachable, is counted and logged once per streak; the others still get it', async (t) => {
  let status = 400;
  const bad = await server(t, () => status);
  const good = await server(t, () => 200);
  const gone = 'http://127.0.0.1:9';
  const registry = new Registry();
  const warnings: Record<string, unknown>[] = [];
  const sender = new AlertmanagerSender([bad.base, good.base, gone], client(t), registry, { ...silentLogger, warn: (msg, meta) => { warnings.push({ msg, ...meta }); } });
  await sender.send([alert]);
  await sender.send([alert]);
  assert.equal(good.seen.length, 2);
  assert.equal(await counter(registry, 'alerts_send_failures_total', bad.base), 2);
  assert.equal(await counter(registry, 'alerts_send_failures_total', gone), 2);
  assert.equal(warnings.filter((w) => w.alertmanager === bad.base).length, 1, 'one warning per failure streak');
  assert.match(String(warnings.find((w) => w.alertmanager === bad.base)?.error), /HTTP 400: bad alert/);
  status = 200;
  await sender.send([alert]);
  assert.equal(await counter(registry, 'alerts_sent_total', bad.base), 1);
  assert.equal(warnings.filter((w) => w.alertmanager === bad.base).length, 2, 'the recovery is logged');
});
