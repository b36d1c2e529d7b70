// A real grpc-js workload behind a real sluice-tap (--upstream-protocol h2c) asking a real agent: a local
// rate limiter on grpc.method limits Unary calls (the grpc-js client reads RESOURCE_EXHAUSTED and the
// pushback), streaming calls pass both ways with their trailers, a short deadline is kept, a flux meter
// published in etcd measures the calls, a labels preview shows the gRPC labels, and garbage after the
// HTTP/2 preface closes that connection only.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { echoClient, startEchoServer, unary } from '@sluice/tap/testing';
import { Etcd3 } from 'etcd3';
import { post } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, startTap, tempDir, until, writeFile } from './support/processes.js';

const CP = 'grpc-ingress';

const LIMITER = `
- name: unary-calls
  control_point: ${CP}
  label_matcher: { match_labels: { grpc.method: Unary } }
  label_key: grpc.service
  bucket_capacity: 3
  fill_amount: 1
  interval: 1h
  continuous_fill: false
`;

function collect(stream: grpc.ClientReadableStream<Buffer> | grpc.ClientDuplexStream<Buffer, Buffer>): Promise<{ messages: string[]; status: grpc.StatusObject }> {
  return new Promise((resolve) => {
    const messages: string[] = [];
    stream.on('data', (m: Buffer) => messages.push(m.toString()));
    stream.on('error', () => undefined);
    stream.on('status', (status: grpc.StatusObject) => resolve({ messages, status }));
  });
}

async function fluxMeterCount(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(new RegExp(`^flux_meter_count\\{flux_meter_name="${name}",[^}]*\\} (\\d+)$`, 'gm'))) n += Number(m[1]);
  return n;
}

test('gRPC through sluice-tap with a real agent: limits, streams, trailers, deadlines, flux meter, preview, bad input', { timeout: 180_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const limiters = writeFile(tempDir(t), 'limiters.yaml', LIMITER);
  const agent = await startAgent(t, { args: ['--local-limiters', limiters], env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  await raw.put(`sluice/config/default/grpc-shop/flux_meter.grpc-latency`).value(JSON.stringify({
    kind: 'flux_meter', policy_name: 'grpc-shop', policy_hash: 'h1', component_id: 'flux_meter.grpc-latency', agent_group: 'default',
    selectors: [{ control_point: CP, agent_group: 'default' }], name: 'grpc-latency', attribute_key: 'workload_duration_ms', buckets: [10, 100, 1000, 10_000],
  }));
  await until(async () => {
    const r = await (await fetch(`${agent.base}/v1/policies/enforced`)).json() as { components: { component_id: string }[] };
    return r.components.some((c) => c.component_id === 'flux_meter.grpc-latency');
  }, 10_000, 'flux meter enforced');

  const echo = await startEchoServer();
  t.after(() => echo.close());
  const tap = await startTap(t, `http://${echo.address}`, agent.address, CP, ['--upstream-protocol', 'h2c', '--check-timeout', '2s']);
  const client = echoClient(`127.0.0.1:${tap.listen}`);
  t.after(() => client.close());

  await t.test('streaming both ways passes, trailers arrive', async () => {
    const counted = await collect(client.Count(Buffer.from('4')));
    assert.deepEqual(counted.messages, ['0', '1', '2', '3']);
    assert.equal(counted.status.code, grpc.status.OK);
    assert.deepEqual(counted.status.metadata.get('x-echo-trailer'), ['done']);
    const bidi = client.Bidi();
    const answers = collect(bidi);
    bidi.write(Buffer.from('ping'));
    bidi.write(Buffer.from('pong'));
    bidi.end();
    const b = await answers;
    assert.deepEqual(b.messages, ['PING', 'PONG']);
    assert.equal(b.status.code, grpc.status.OK);
    assert.deepEqual(b.status.metadata.get('x-echo-trailer'), ['done']);
  });

  await t.test('the rate limit on grpc.method: three Unary calls, then RESOURCE_EXHAUSTED with grpc-retry-pushback-ms; other methods pass', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await unary(client, 'Unary', `call ${i}`);
      assert.equal(r.error, undefined, r.error?.message);
      assert.equal(r.value?.toString(), `call ${i}`);
      assert.deepEqual(r.trailers?.get('x-echo-trailer'), ['done']);
    }
    const before = echo.calls.Unary;
    const limited = await unary(client, 'Unary', 'one too many');
    assert.equal(limited.error?.code, grpc.status.RESOURCE_EXHAUSTED, limited.error?.message);
    const pushback = Number(limited.trailers?.get('grpc-retry-pushback-ms')[0]);
    assert.ok(pushback > 0 && pushback <= 3_600_000, `pushback ${String(pushback)}`);
    assert.equal(echo.calls.Unary, before, 'the limited call never reached the workload');
    assert.equal((await unary(client, 'Slow', '5')).value?.toString(), '5', 'Slow is another method: not limited');
  });

  await t.test('a short client deadline is kept: DEADLINE_EXCEEDED near it', async () => {
    const started = Date.now();
    const r = await unary(client, 'Slow', '5000', { deadlineMs: 400 });
    assert.equal(r.error?.code, grpc.status.DEADLINE_EXCEEDED);
    assert.ok(Date.now() - started < 4000, `${Date.now() - started} ms`);
  });

  await t.test('the flux meter sees the calls\' durations', async () => {
    const before = await fluxMeterCount(agent.base, 'grpc-latency');
    assert.equal((await unary(client, 'Slow', '120')).value?.toString(), '120');
    await until(async () => (await fluxMeterCount(agent.base, 'grpc-latency')) > before, 10_000, 'flux meter counted the call');
    const text = await (await fetch(`${agent.base}/metrics`)).text();
    assert.match(text, /^flux_meter_bucket\{flux_meter_name="grpc-latency",[^}]*response_status="200"[^}]*le="1000"\} [1-9]/m);
  });

  await t.test('a labels preview shows the gRPC labels', async () => {
    const pending = post(`${agent.base}/v1/flowcontrol/preview/labels/${CP}?samples=1`, JSON.stringify({ match_labels: { 'grpc.method': 'Slow' } }));
    let done = false;
    void pending.finally(() => { done = true; });
    for (let i = 0; !done && i < 200; i++) {
      await unary(client, 'Slow', '1');
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await pending;
    assert.equal(r.status, 200, r.text);
    const { samples } = JSON.parse(r.text) as { samples: { labels: Record<string, string> }[] };
    assert.equal(samples.length, 1);
    const labels = samples[0]?.labels ?? {};
    assert.equal(labels['grpc.service'], 'sluice.test.Echo');
    assert.equal(labels['grpc.method'], 'Slow');
    assert.equal(labels['http.target'], '/sluice.test.Echo/Slow');
    assert.equal(labels['http.flavor'], '2.0');
    assert.equal(labels['http.method'], 'POST');
  });

  await t.test('garbage HTTP/2 frames close that connection; the tap lives on', async () => {
    const closed = (bytes: Buffer): Promise<void> => new Promise((resolve, reject) => {
      const socket = net.connect(tap.listen, '127.0.0.1');
      const timer = setTimeout(() => { socket.destroy(); reject(new Error('left open')); }, 15_000);
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
      socket.on('close', () => { clearTimeout(timer); resolve(); });
      socket.on('connect', () => socket.write(bytes));
    });
    const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
    await closed(Buffer.concat([preface, Buffer.alloc(64, 0xff)]));
    // SETTINGS, then HEADERS on stream 0 (a connection error).
    await closed(Buffer.concat([preface, Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]), Buffer.from([0, 0, 1, 1, 5, 0, 0, 0, 0, 0x82])]));
    assert.equal(tap.child.exitCode, null, 'the tap is running');
    assert.equal((await unary(client, 'Slow', '2')).value?.toString(), '2');
  });
});
