// The real agent's local rate limiters against a hostile client: a W3C baggage header that names a
// cost of 0 (or a fraction) does not get an exhausted bucket to let requests through; an empty
// limiters file starts the agent with a warning naming the file, in its log; bucket evictions are
// counted on /metrics.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { checkHttpRequest, grpcClient, unaryCall } from './support/clients.js';
import { startAgent, tempDir, writeFile, type SluiceProcess } from './support/processes.js';

interface HttpAnswer { ok_response?: unknown; denied_response?: { status: number } | null }

/** An agent whose liveness is enough: readiness also waits for etcd, which this test does not need. */
function startAgentPatiently(t: TestContext, args: string[] = []): Promise<SluiceProcess> {
  return startAgent(t, { args, ready: 'live' });
}

test('baggage: tokens=0 (or a fraction) cannot get a request through an exhausted bucket', { timeout: 120_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', '- { name: strict, control_point: ingress, bucket_capacity: 2, fill_amount: 1, interval: 1h }\n');
  const agent = await startAgentPatiently(t, ['--local-limiters', limiters]);
  const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
  const check = async (baggage: string): Promise<number> => {
    const r = await unaryCall<HttpAnswer>(checkHttp, 'CheckHTTP', checkHttpRequest('ingress', '/pay', { baggage }));
    return r.denied_response?.status ?? 200;
  };
  assert.equal(await check('tokens=0'), 200, 'the first two fit (each costs 1 token whatever the baggage says)');
  assert.equal(await check('tokens=0.0001'), 200);
  for (const baggage of ['tokens=0', 'tokens=0.0001', 'tokens=-5', 'tokens=NaN', 'user=a,tokens=0;p=1']) {
    assert.equal(await check(baggage), 429, `${baggage}: the exhausted bucket holds`);
  }
});

test('an empty limiters file starts the agent with a warning naming the file', { timeout: 120_000 }, async (t) => {
  const file = writeFile(tempDir(t), 'empty.yaml', '# nothing here yet\n');
  const agent = await startAgentPatiently(t, ['--local-limiters', file]);
  const line = await agent.waitForLine(/holds no rate limiter/, 5000);
  assert.ok(line.includes(file), line);
  // In the agent's log (JSON, level warn), not a Node process warning on stderr.
  const entry = JSON.parse(line) as { level: string; meta?: { file?: string } };
  assert.equal(entry.level, 'warn');
  assert.equal(entry.meta?.file, file);
  assert.doesNotMatch(agent.output(), /SluiceWarning/);
});

test('bucket evictions of a local limiter are counted on the agent\'s /metrics', { timeout: 120_000 }, async (t) => {
  const limiters = writeFile(tempDir(t), 'limiters.yaml', '- { name: per-user, control_point: ingress, bucket_capacity: 5, fill_amount: 1, interval: 1h, label_key: user, max_buckets: 1 }\n');
  const agent = await startAgentPatiently(t, ['--local-limiters', limiters]);
  const metrics = async (): Promise<string> => (await fetch(`${agent.base}/metrics`)).text();
  assert.match(await metrics(), /^# TYPE sluice_rate_limiter_bucket_evictions_total counter$/m, 'exported before any eviction');
  const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
  // One bucket at most: each new user evicts the previous one's.
  for (const user of ['a', 'b', 'c']) {
    const r = await unaryCall<HttpAnswer>(checkHttp, 'CheckHTTP', checkHttpRequest('ingress', '/pay', { baggage: `user=${user}` }));
    assert.equal(r.denied_response?.status ?? 200, 200);
  }
  const m = /^sluice_rate_limiter_bucket_evictions_total\{([^}]*)\} (\d+)$/m.exec(await metrics());
  assert.ok(m, 'an eviction sample');
  assert.match(m[1], /reason="capacity"/);
  assert.equal(Number(m[2]), 2);
});
