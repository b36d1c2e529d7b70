import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import { PedanticRegistry } from './pedantic.js';
import { MetricInconsistencyError } from './inconsistency-error.js';

function refused(metric: string, pattern: RegExp): (err: unknown) => boolean {
  return (err) => err instanceof MetricInconsistencyError && err.metric === metric && pattern.test(err.message);
}

test('re-registering a name with another type, help or labels is refused, saying what differs', () => {
  const registry = new PedanticRegistry();
  new Counter({ name: 'jobs_total', help: 'Jobs.', labelNames: ['group'], registers: [registry] });
  assert.throws(() => new Gauge({ name: 'jobs_total', help: 'Jobs.', labelNames: ['group'], registers: [registry] }), refused('jobs_total', /type counter vs gauge/));
  assert.throws(() => new Counter({ name: 'jobs_total', help: 'Other.', labelNames: ['group'], registers: [registry] }), refused('jobs_total', /help/));
  assert.throws(() => new Counter({ name: 'jobs_total', help: 'Jobs.', labelNames: ['name'], registers: [registry] }), refused('jobs_total', /labels \[group\] vs \[name\]/));
  assert.throws(() => new Counter({ name: 'jobs_total', help: 'Jobs.', labelNames: ['group'], registers: [registry] }), refused('jobs_total', /already registered/));
  const same = registry.getSingleMetric('jobs_total');
  assert.ok(same);
  assert.doesNotThrow(() => registry.registerMetric(same), 'the same object again is fine');
});

test('sample names that would collide in the exposition are refused', () => {
  const registry = new PedanticRegistry();
  new Histogram({ name: 'latency_seconds', help: 'Latency.', registers: [registry] });
  assert.throws(() => new Counter({ name: 'latency_seconds_count', help: 'Count.', registers: [registry] }), refused('latency_seconds_count', /collides with metric "latency_seconds"/));
  new Gauge({ name: 'queue_sum', help: 'Sum.', registers: [registry] });
  assert.throws(() => new Summary({ name: 'queue', help: 'Queue.', registers: [registry] }), refused('queue', /queue_sum/));
});

test('reserved and invalid label names are refused', () => {
  const registry = new PedanticRegistry();
  const fake = (labelNames: string[]) => Object.assign(Object.create(Gauge.prototype) as Gauge, { name: 'fake_gauge', help: 'x', labelNames });
  assert.throws(() => registry.registerMetric(fake(['__name'])), refused('fake_gauge', /invalid label name "__name"/));
  assert.throws(() => registry.registerMetric(fake(['a', 'a'])), refused('fake_gauge', /declared twice/));
  const badName = Object.assign(Object.create(Gauge.prototype) as Gauge, { name: '1bad', help: 'x', labelNames: [] });
  assert.throws(() => registry.registerMetric(badName), refused('1bad', /invalid metric name/));
  const noHelp = Object.assign(Object.create(Gauge.prototype) as Gauge, { name: 'nohelp', help: ' ', labelNames: [] });
  assert.throws(() => registry.registerMetric(noHelp), refused('nohelp', /help/));
  const plain = new Registry();
  assert.doesNotThrow(() => plain.registerMetric(fake(['a', 'a'])), 'a plain registry does not check');
});

test('label values missing at collection fail the scrape, naming the metric', async () => {
  const registry = new PedanticRegistry();
  const counter = new Counter({ name: 'checks_total', help: 'Checks.', labelNames: ['decision', 'reason'], registers: [registry] });
  counter.inc({ decision: 'accepted', reason: 'none' });
  assert.match(await registry.metrics(), /checks_total\{decision="accepted",reason="none"\} 1/);
  counter.inc({ decision: 'rejected' });
  await assert.rejects(registry.metrics(), refused('checks_total', /label values missing: "reason"/));
  await assert.rejects(registry.getSingleMetricAsString('checks_total'), refused('checks_total', /reason/));
  await assert.rejects(registry.getMetricsAsJSON(), refused('checks_total', /reason/));
  const plain = new Registry();
  const loose = new Counter({ name: 'checks_total', help: 'Checks.', labelNames: ['decision', 'reason'], registers: [plain] });
  loose.inc({ decision: 'rejected' });
  assert.match(await plain.metrics(), /checks_total\{decision="rejected"\} 1/, 'a plain registry serves it');
});

test('a hand-made collector reporting undeclared labels, bad values, duplicates or invalid UTF-8 fails the scrape', async () => {
  type Sample = { value: unknown; labels: Record<string, unknown>; metricName?: string };
  const collector = (name: string, labelNames: string[], values: Sample[], type = 'gauge') =>
    Object.assign(Object.create(Gauge.prototype) as Gauge, {
      name, help: 'Hand-made.', labelNames,
      get: async () => ({ name, help: 'Hand-made.', type, aggregator: 'sum', values }),
    });
  const cases: [Gauge, RegExp][] = [
    [collector('undeclared', [], [{ value: 1, labels: { other: 'v' } }]), /undeclared label "other"/],
    [collector('utf8', ['l'], [{ value: 1, labels: { l: 'a\uD800b' } }]), /not valid UTF-8/],
    [collector('dup', ['l'], [{ value: 1, labels: { l: 'x' } }, { value: 2, labels: { l: 'x' } }]), /dup\{l="x"\} collected twice/],
    [collector('text_value', [], [{ value: 'one', labels: {} }]), /string value/],
    [collector('typed', [], [{ value: 1, labels: {} }], 'counter'), /collected as counter, declared gauge/],
    [collector('renamed', [], [{ value: 1, labels: {}, metricName: 'renamed_total' }]), /unexpected sample "renamed_total"/],
  ];
  for (const [metric, pattern] of cases) {
    const registry = new PedanticRegistry();
    registry.registerMetric(metric);
    await assert.rejects(registry.metrics(), refused((metric as unknown as { name: string }).name, pattern));
  }
  const ok = new PedanticRegistry();
  ok.registerMetric(collector('fine', ['l'], [{ value: 1, labels: { l: 'x' } }, { value: Number.NaN, labels: { l: 'y' } }]));
  await ok.checkConsistency();
});

test('a negative counter from a hand-made collector is refused', async () => {
  const registry = new PedanticRegistry();
  registry.registerMetric(Object.assign(Object.create(Counter.prototype) as Counter, {
    name: 'neg_total', help: 'x', labelNames: [],
    get: async () => ({ name: 'neg_total', help: 'x', type: 'counter', aggregator: 'sum', values: [{ value: -1, labels: {} }] }),
  }));
  await assert.rejects(registry.metrics(), refused('neg_total', /negative/));
});

test('NaN is a valid gauge value in a pedantic registry', async () => {
  const registry = new PedanticRegistry();
  new Gauge({ name: 'nan_value', help: 'x', registers: [registry] }).set(Number.NaN);
  assert.match(await registry.metrics(), /^nan_value nan$/im);
});
