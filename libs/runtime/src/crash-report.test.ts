import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { CrashReportConfig } from '@sluice/config';
import { crashReportingOn, startCrashReporter } from './crash-report.js';

const BASE: CrashReportConfig = {
  attach_stack_trace: true, debug: false, disabled: false, dsn: '', environment: 'production', sample_rate: 1, traces_sample_rate: 0.2,
};

test('reporting is off without a dsn, or when disabled', async () => {
  assert.equal(crashReportingOn(BASE), false);
  assert.equal(crashReportingOn({ ...BASE, dsn: '  ' }), false);
  assert.equal(crashReportingOn({ ...BASE, dsn: 'http://k@127.0.0.1:1/1', disabled: true }), false);
  assert.equal(crashReportingOn({ ...BASE, dsn: 'http://k@127.0.0.1:1/1' }), true);
  assert.equal(await startCrashReporter(BASE, { service: 'sluice-agent', release: '0', secrets: () => [] }), undefined);
});

/** The bodies POSTed to /api/<project>/envelope/ (the client sends to a local server). */
async function envelopeServer(t: import('node:test').TestContext): Promise<{ port: number; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (/^\/api\/\d+\/envelope\//.test(req.url ?? '')) bodies.push(body.toString('utf8'));
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { port: (server.address() as AddressInfo).port, bodies };
}

test('a report reaches the dsn with its environment, level and release, secrets scrubbed; sample_rate 0 sends nothing', async (t) => {
  const { port, bodies } = await envelopeServer(t);
  const config = { ...BASE, dsn: `http://pub@127.0.0.1:${port}/3`, environment: 'unit', sample_rate: 1 };
  const reporter = await startCrashReporter(config, { service: 'sluice-agent', release: '9.9.9', secrets: () => ['s3cr3t-value'] });
  assert.ok(reporter);
  reporter.report(new Error('boom with s3cr3t-value inside'), 'fatal');
  assert.equal(await reporter.flush(5000), true);
  assert.equal(bodies.length, 1);
  const event = JSON.parse(bodies[0].split('\n').find((l) => l.includes('"exception"')) ?? '{}') as Record<string, unknown>;
  assert.equal(event.environment, 'unit');
  assert.equal(event.level, 'fatal');
  assert.equal(event.release, '9.9.9');
  assert.ok(!bodies[0].includes('s3cr3t-value'));
  assert.match(bodies[0], /boom with \*\*\*\* inside/);

  // The same client with sample_rate 0 (a new client replaces the first).
  const none = await startCrashReporter({ ...config, sample_rate: 0 }, { service: 'sluice-agent', release: '9.9.9', secrets: () => [] });
  none?.report(new Error('dropped'), 'fatal');
  await none?.flush(2000);
  assert.equal(bodies.length, 1, 'nothing sent at sample_rate 0');
});

test('a trace is sent at traces_sample_rate 1 and not at 0', async (t) => {
  const { port, bodies } = await envelopeServer(t);
  const config = { ...BASE, dsn: `http://pub@127.0.0.1:${port}/4`, environment: 'unit' };
  const all = await startCrashReporter({ ...config, traces_sample_rate: 1 }, { service: 'sluice-agent', release: '1', secrets: () => [] });
  all?.trace('sluice-agent start-up', 'process.start', Date.now() - 1500);
  await all?.flush(5000);
  // The client sends spans as span items (v2); the start-up is the root span of its trace.
  const sent = bodies.find((b) => b.includes('"name":"sluice-agent start-up"'));
  assert.ok(sent, `a trace in ${JSON.stringify(bodies)}`);
  assert.match(sent, /"type":"span"/);
  const items = JSON.parse(sent.split('\n').find((l) => l.includes('"items"')) ?? '{}') as { items?: Array<{ name: string; start_timestamp: number; end_timestamp: number; attributes: Record<string, { value: unknown }> }> };
  const span = items.items?.find((i) => i.name === 'sluice-agent start-up');
  assert.ok(span);
  assert.equal(span.attributes['sentry.environment']?.value, 'unit');
  assert.equal(span.attributes['sentry.op']?.value, 'process.start');
  assert.ok(span.end_timestamp - span.start_timestamp >= 1.4, 'from the given start to now');

  const before = bodies.length;
  const none = await startCrashReporter({ ...config, traces_sample_rate: 0 }, { service: 'sluice-agent', release: '1', secrets: () => [] });
  none?.trace('sluice-agent start-up', 'process.start', Date.now() - 1500);
  await none?.flush(2000);
  assert.equal(bodies.length, before, 'no trace at traces_sample_rate 0');
});
