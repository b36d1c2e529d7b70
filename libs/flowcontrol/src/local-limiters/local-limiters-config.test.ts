import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../check/engine.js';
import { LocalLimitersError, loadLocalLimiters } from './local-limiters-config.js';
import { applyLocalLimiters } from './apply-local-limiters.js';
import { LocalTokenBucketStore } from '@sluice/tokenbucket';

const good = `
- control_point: ingress
  service: api
  label_matcher: { match_labels: { http.method: GET } }
  bucket_capacity: 2
  fill_amount: 1
  interval: 10s
  label_key: user
  continuous_fill: false
  max_idle_time: 1m
- control_point: other
  bucket_capacity: 0
  fill_amount: 0
  interval: 1s
  agent_group: elsewhere
`;

test('a valid file loads with defaults filled in', () => {
  const specs = loadLocalLimiters(good);
  assert.equal(specs.length, 2);
  assert.deepEqual(specs[0], {
    name: 'local-limiter-0', control_point: 'ingress', service: 'api', agent_group: 'default',
    label_matcher: { match_labels: { 'http.method': 'GET' } }, bucket_capacity: 2, fill_amount: 1, interval: 10_000,
    label_key: 'user', tokens_label_key: 'tokens', tokens_from_request_labels: false, fractional_tokens: false, max_buckets: 100_000,
    continuous_fill: false, max_idle_time: 60_000,
  });
  assert.equal(specs[1].service, 'any');
  assert.equal(specs[1].continuous_fill, true);
  assert.equal(specs[1].max_idle_time, 7_200_000);
  assert.deepEqual(loadLocalLimiters(''), []);
  assert.equal(loadLocalLimiters('[{"control_point":"x","bucket_capacity":1,"fill_amount":1,"interval":"1s"}]').length, 1, 'JSON is fine too');
});

test('applied limiters enforce on their control point, service and labels', async () => {
  const engine = new Engine();
  const off = applyLocalLimiters(engine, loadLocalLimiters(good));
  const f = { controlPoint: 'ingress', labels: { 'http.method': 'GET', user: 'u' }, services: ['api'] };
  assert.equal((await engine.check(f)).accepted, true);
  assert.equal((await engine.check(f)).accepted, true);
  const rej = await engine.check(f);
  assert.equal(rej.accepted, false);
  assert.ok(rej.waitMs > 9000 && rej.waitMs <= 10_000, 'whole interval of 10s');
  assert.equal((await engine.check({ ...f, labels: { 'http.method': 'POST', user: 'u' } })).accepted, true, 'label matcher');
  assert.equal((await engine.check({ ...f, services: ['web'] })).accepted, true, 'service');
  assert.equal((await engine.check({ controlPoint: 'other', labels: {}, services: [] })).accepted, true, 'other agent group not applied');
  off();
  assert.equal((await engine.check(f)).accepted, true);
});

function problems(text: string): string[] {
  try {
    loadLocalLimiters(text);
  } catch (err) {
    assert.ok(err instanceof LocalLimitersError);
    assert.equal(err.grpcCode, 3);
    return err.problems.map((p) => (p.path === "" ? p.message : `${p.path}: ${p.message}`));
  }
  assert.fail('expected an error');
}

test('bad files are refused with every problem and its path', () => {
  assert.match(problems('{not: [valid')[0], /not valid YAML/);
  assert.match(problems('control_point: x')[0], /must be a list/);
  assert.match(problems('- 42')[0], /^\[0\]: must be an object, got number/);
  const p = problems(`
- control_point: ""
  bucket_capacity: -1
  fill_amount: "ten"
  interval: 10
  continuous_fill: "yes"
  max_idle_time: -1s
  label_matcher: [1]
  bogus: 1
- bucket_capacity: 1
  fill_amount: 1
  interval: 1fortnight
- { control_point: a, bucket_capacity: 1, fill_amount: 1, interval: 1s, name: dup }
- { control_point: b, bucket_capacity: 1, fill_amount: 1, interval: 1s, name: dup, service: 5 }
`);
  const expect = [
    /^\[0\]\.bogus: unknown key/, /^\[0\]\.control_point: must not be empty/, /^\[0\]\.label_matcher: must be an object/,
    /^\[0\]\.continuous_fill: must be a boolean/, /^\[0\]\.bucket_capacity: must be >= 0/, /^\[0\]\.fill_amount: must be a number/,
    /^\[0\]\.interval: must be a duration/, /^\[0\]\.max_idle_time: must be (>= 0|a duration)/,
    /^\[1\]\.control_point: is required/, /^\[1\]\.interval: must be a duration/,
    /^\[3\]\.service: must be a string/, /^\[3\]\.name: duplicate name "dup"/,
  ];
  for (const re of expect) assert.ok(p.some((m) => re.test(m)), `${re} in ${JSON.stringify(p)}`);
  assert.equal(p.length, expect.length);
  const long = problems(`- { control_point: ${'x'.repeat(600)}, bucket_capacity: 1, fill_amount: 1, interval: 1s }`);
  assert.match(long[0], /at most 512/);
});

test('a bad label matcher registers nothing and names the limiter', () => {
  const engine = new Engine();
  const specs = loadLocalLimiters(`
- { control_point: a, bucket_capacity: 0, fill_amount: 1, interval: 1s }
- { control_point: a, bucket_capacity: 1, fill_amount: 1, interval: 1s, label_matcher: { match_expressions: [ { key: k, operator: Around } ] } }
`);
  assert.throws(() => applyLocalLimiters(engine, specs), (err: Error & { field?: string }) => {
    assert.match(err.message, /^\[1\]\.label_matcher\.match_expressions\[0\]\.operator/);
    assert.equal(err.field, '[1].label_matcher.match_expressions[0].operator');
    return true;
  });
  return Promise.resolve(engine.check({ controlPoint: 'a', labels: {}, services: [] })).then((d) => assert.equal(d.accepted, true, 'first limiter rolled back'));
});

test('a capacity of .nan or .inf is refused as not finite, naming the value', () => {
  for (const [text, shown] of [['.nan', 'NaN'], ['.inf', 'Infinity'], ['-.inf', '-Infinity']]) {
    assert.throws(() => loadLocalLimiters(`- { control_point: a, bucket_capacity: ${text}, fill_amount: 1, interval: 1s }`), (err: Error) => {
      assert.ok(err instanceof LocalLimitersError);
      assert.match(err.message, new RegExp(`\\[0\\]\\.bucket_capacity: must be a finite number, got ${shown.replace('-', '\\-')}`));
      return true;
    });
  }
});

test('a duration past Go\'s maximum is refused as too large, naming the maximum', () => {
  assert.throws(() => loadLocalLimiters('- { control_point: a, bucket_capacity: 1, fill_amount: 1, interval: 100000000h }'),
    /\[0\]\.interval: is too large: at most 2562047h47m16\.854775807s/);
  assert.throws(() => loadLocalLimiters('- { control_point: a, bucket_capacity: 1, fill_amount: 1, interval: 10 parsecs }'),
    /\[0\]\.interval: must be a duration such as/);
});

test('cost options and max_buckets are read and checked', () => {
  const [spec] = loadLocalLimiters('- { control_point: a, bucket_capacity: 1, fill_amount: 1, interval: 1s, tokens_from_request_labels: true, fractional_tokens: true, max_buckets: 50 }');
  assert.equal(spec.tokens_from_request_labels, true);
  assert.equal(spec.fractional_tokens, true);
  assert.equal(spec.max_buckets, 50);
  assert.throws(() => loadLocalLimiters('- { control_point: a, bucket_capacity: 1, fill_amount: 1, interval: 1s, fractional_tokens: yes please, max_buckets: 0 }'), (err: Error) => {
    assert.match(err.message, /\[0\]\.fractional_tokens: must be a boolean, got string/);
    assert.match(err.message, /\[0\]\.max_buckets: must be an integer from 1 to 10000000, got 0/);
    return true;
  });
  assert.throws(() => loadLocalLimiters('- { control_point: a, bucket_capacity: 1, fill_amount: 1, interval: 1s, max_buckets: 1.5 }'), /max_buckets: must be an integer/);
});

test('max_idle_time 0s keeps a bucket however long it idles (only the key bound drops it)', () => {
  const [spec] = loadLocalLimiters('- { control_point: a, bucket_capacity: 2, fill_amount: 0, interval: 1h, continuous_fill: false, max_idle_time: 0s }');
  assert.equal(spec.max_idle_time, 0);
  const store = new LocalTokenBucketStore({ capacity: 2, fillAmount: 0, intervalMs: 3_600_000, continuousFill: false }, { maxIdleMs: spec.max_idle_time });
  assert.equal(store.take('u', 2, 0).ok, true);
  // A year later the drained bucket is still there: a dropped one would start full again.
  assert.equal(store.take('u', 1, 365 * 86_400_000 - 1).ok, false);
  assert.equal(store.size, 1);
});
