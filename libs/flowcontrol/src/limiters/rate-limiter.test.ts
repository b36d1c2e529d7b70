import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { Engine } from '../check/engine.js';
import { RateLimiter, tokensOf } from './rate-limiter.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { rateLimiterMetrics } from './rate-limiter-metrics.js';
import type { CheckDecision } from '../check/decision.js';
import { LocalTokenBucketStore } from '@sluice/tokenbucket';

test('tokensOf: a label cost is a finite number >= 1 rounded up; anything lower or invalid costs 1', () => {
  const cases: [string | undefined, number][] = [
    [undefined, 1], ['', 1], ['  ', 1], ['0', 1], ['-0', 1], ['-5', 1], ['0.000001', 1], ['1e-300', 1], ['0.99', 1],
    ['NaN', 1], ['Infinity', 1], ['-Infinity', 1], ['abc', 1], ['1', 1], ['1.2', 2], ['3', 3], ['2.0000001', 3], ['1e3', 1000],
  ];
  for (const [raw, want] of cases) assert.equal(tokensOf(raw), want, `tokens=${String(raw)}`);
});

test('tokensOf with fractional costs: any finite number > 0 as it is; 0, negative and invalid still cost 1', () => {
  const cases: [string, number][] = [['0.25', 0.25], ['1.5', 1.5], ['0', 1], ['-1', 1], ['NaN', 1], ['Infinity', 1], ['1e-300', 1e-300]];
  for (const [raw, want] of cases) assert.equal(tokensOf(raw, true), want, `tokens=${raw}`);
});

function limiterEngine(extra = ''): Engine {
  const e = new Engine();
  applyLocalLimiters(e, loadLocalLimiters(`- { control_point: cp, bucket_capacity: 2, fill_amount: 1, interval: 1h ${extra} }`));
  return e;
}

async function decide(e: Engine, labels: Record<string, string>, type: 'http' | 'feature'): Promise<CheckDecision> {
  return e.check({ controlPoint: 'cp', labels, services: [], type });
}

test('an HTTP flow cannot lower its cost through its request labels (baggage tokens=0 or a fraction)', async () => {
  for (const tokens of ['0', '0.001', '-1', 'NaN']) {
    const e = limiterEngine();
    assert.equal((await decide(e, { tokens }, 'http')).accepted, true);
    assert.equal((await decide(e, { tokens }, 'http')).accepted, true);
    for (let i = 0; i < 5; i++) assert.equal((await decide(e, { tokens }, 'http')).accepted, false, `tokens=${tokens}: the exhausted bucket holds (${i})`);
  }
});

test('an HTTP flow cannot raise another cost through baggage either: request labels do not set the cost of HTTP flows', async () => {
  const e = limiterEngine();
  assert.equal((await decide(e, { tokens: '2' }, 'http')).accepted, true);
  assert.equal((await decide(e, { tokens: '2' }, 'http')).accepted, true, 'each HTTP flow cost 1: two fit in capacity 2');
  assert.equal((await decide(e, {}, 'http')).accepted, false);
});

test('a classifier output sets the cost of an HTTP flow', async () => {
  const e = limiterEngine();
  e.register({
    kind: 'classifier',
    identity: { policy_name: 'p', policy_hash: 'h', classifier_index: 0 },
    classify: () => ({ tokens: '2' }),
  }, { control_point: 'cp' });
  assert.equal((await decide(e, { tokens: '0' }, 'http')).accepted, true);
  assert.equal((await decide(e, { tokens: '0' }, 'http')).accepted, false, 'the classifier cost of 2 emptied the bucket');
});

test('an SDK Check sets its own cost (the application is trusted), never below 1', async () => {
  const e = limiterEngine();
  assert.equal((await decide(e, { tokens: '2' }, 'feature')).accepted, true);
  assert.equal((await decide(e, { tokens: '0' }, 'feature')).accepted, false, 'tokens=0 still costs 1: the bucket is empty');
});

test('tokens_from_request_labels opts into client-set costs, still never below 1 token', async () => {
  const e = limiterEngine(', tokens_from_request_labels: true');
  assert.equal((await decide(e, { tokens: '2' }, 'http')).accepted, true);
  assert.equal((await decide(e, { tokens: '0' }, 'http')).accepted, false);
});

test('fractional_tokens opts into fractional costs', async () => {
  const e = limiterEngine(', tokens_from_request_labels: true, fractional_tokens: true');
  for (let i = 0; i < 8; i++) assert.equal((await decide(e, { tokens: '0.25' }, 'http')).accepted, true, `quarter ${i}`);
  assert.equal((await decide(e, { tokens: '0.25' }, 'http')).accepted, false);
});

test('a limiter called without costLabels reads the cost from its labels', () => {
  const rl = new RateLimiter({ identity: { policy_name: 'p', policy_hash: '', component_id: 'c' }, store: new LocalTokenBucketStore({ capacity: 3, fillAmount: 1, intervalMs: 1000, continuousFill: true }) });
  const r = rl.decide({ tokens: '3' }, { nowMs: 0, deadlineMs: undefined });
  assert.equal((r as { tokens: number }).tokens, 3);
});

test('bucket evictions are counted in sluice_rate_limiter_bucket_evictions_total by limiter and reason', async () => {
  const registry = new Registry();
  const e = new Engine();
  applyLocalLimiters(e, loadLocalLimiters('- { name: per-user, control_point: cp, bucket_capacity: 1, fill_amount: 1, interval: 1h, label_key: user, max_buckets: 10 }'), { metrics: rateLimiterMetrics(registry) });
  for (let i = 0; i < 25; i++) await e.check({ controlPoint: 'cp', labels: { user: `u${i}` }, services: [] });
  const text = await registry.metrics();
  assert.match(text, /sluice_rate_limiter_bucket_evictions_total\{component_id="per-user",reason="capacity"\} 15/);
  rateLimiterMetrics(registry);
  assert.equal((await registry.getMetricsAsJSON()).filter((m) => m.name === 'sluice_rate_limiter_bucket_evictions_total').length, 1, 'one counter per registry');
});

test('through CheckHTTP: a baggage header naming tokens=0 or a fraction does not pass an exhausted bucket', async () => {
  const { decideCheckHttp } = await import('../checkhttp/checkhttp-decide.js');
  const engine = limiterEngine();
  const request = (baggage: string) => ({
    control_point: 'cp',
    source: { address: '10.0.0.9', port: 40000, protocol: 'TCP' as const },
    destination: { address: '10.0.0.1', port: 8080, protocol: 'TCP' as const },
    request: { method: 'GET', path: '/pay', host: 'shop', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: { baggage }, body: '', truncated_body: false },
    ramp_mode: false,
  });
  const status = async (baggage: string): Promise<number> => {
    const r = await decideCheckHttp({ engine, discovery: undefined }, request(baggage), undefined);
    return r.denied_response?.status ?? 200;
  };
  assert.equal(await status('tokens=0'), 200);
  assert.equal(await status('tokens=0.0001'), 200);
  for (const baggage of ['tokens=0', 'tokens=0.0001', 'tokens=-5', 'tokens=NaN', 'user=a,tokens=0;p=1', 'tokens=%30']) {
    assert.equal(await status(baggage), 429, `${baggage}: the exhausted bucket holds`);
  }
});
