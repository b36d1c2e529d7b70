import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { ControllerConfigSchema, defaultsOf, type ControllerConfig } from '@sluice/config';
import type { RaisedAlert } from '@sluice/policies';
import { Registry } from 'prom-client';
import type { PostableAlert } from './alert-book.js';
import { createAlerting } from './alerting.js';
import { until } from './test-support.js';

const alert: RaisedAlert = { name: 'Overloaded', severity: 'warn', resolveTimeoutMs: 60_000, channels: [], labels: { policy_name: 'svc', component_id: 'root.1', type: 'alerter' } };

/** A loopback stand-in for Alertmanager's POST /api/v2/alerts, keeping every batch. */
async function alertmanager(t: TestContext) {
  const batches: PostableAlert[][] = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/v2/alerts') batches.push(JSON.parse(body) as PostableAlert[]);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { srv.closeAllConnections(); srv.close(() => r()); }));
  return { batches, url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}` };
}

function config(url: string, batch: Partial<ControllerConfig['otel']['batch_alerts']>): ControllerConfig {
  const c = defaultsOf(ControllerConfigSchema) as ControllerConfig;
  return { ...c, alerts: { ...c.alerts, alertmanagers: [url] }, otel: { ...c.otel, batch_alerts: { ...c.otel.batch_alerts, ...batch } } };
}

test('raises within otel.batch_alerts.timeout go in one batch, one entry per alert (its latest state)', async (t) => {
  const am = await alertmanager(t);
  const alerting = createAlerting({ config: config(am.url, { timeout: '100ms' }), registry: new Registry() });
  alerting.start();
  t.after(() => alerting.shutdown());
  alerting.book.raise(alert);
  alerting.book.raise(alert);
  alerting.book.raise({ ...alert, severity: 'crit' });
  assert.equal(am.batches.length, 0, 'nothing before the timeout');
  await until(() => am.batches.length === 1, 3000, 'one batch');
  assert.deepEqual(am.batches[0].map((a) => a.labels.severity), ['warn', 'crit']);
  let listed: unknown;
  alerting.route(undefined, { json: (b) => { listed = b; } });
  assert.equal((listed as { alerts: unknown[] }).alerts.length, 2);
});

test('send_batch_size sends at once; shutdown sends what is pending', async (t) => {
  const am = await alertmanager(t);
  const alerting = createAlerting({ config: config(am.url, { timeout: '1h', send_batch_size: 2 }), registry: new Registry() });
  alerting.start();
  alerting.book.raise(alert);
  alerting.book.raise({ ...alert, severity: 'crit' });
  await until(() => am.batches.length === 1, 3000, 'sent at two alerts');
  alerting.book.raise({ ...alert, severity: 'info' });
  await alerting.shutdown();
  assert.equal(am.batches.length, 2, 'the pending one went at shutdown');
  assert.equal(am.batches[1][0].labels.severity, 'info');
});
