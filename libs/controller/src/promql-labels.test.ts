import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { checkQueryLabels, injectQueryLabels } from './promql-labels.js';

const L = [{ name: 'cluster', value: 'east' }];
const M = 'cluster="east"';

test('every selector gets the labels: bare names, braces, name-less braces', () => {
  assert.equal(injectQueryLabels('up', L), `up{${M}}`);
  assert.equal(injectQueryLabels('up{job="a"}', L), `up{${M},job="a"}`);
  assert.equal(injectQueryLabels('up {}', L), `up {${M}}`);
  assert.equal(injectQueryLabels('{__name__=~"up|down"}', L), `{${M},__name__=~"up|down"}`);
  assert.equal(injectQueryLabels('a:rate5m + b_total', L), `a:rate5m{${M}} + b_total{${M}}`);
});

test('functions, aggregations, grouping label lists, durations, numbers and keywords are left alone', () => {
  assert.equal(
    injectQueryLabels('sum by (job, instance) (rate(http_requests_total{code=~"5.."}[5m] offset 1m)) / 2e3', L),
    `sum by (job, instance) (rate(http_requests_total{${M},code=~"5.."}[5m] offset 1m)) / 2e3`,
  );
  assert.equal(injectQueryLabels('sum(x) without (pod)', L), `sum(x{${M}}) without (pod)`);
  assert.equal(injectQueryLabels('a / on(job) group_left(team) b', L), `a{${M}} / on(job) group_left(team) b{${M}}`);
  assert.equal(injectQueryLabels('a > bool 3 and b or c unless d', L), `a{${M}} > bool 3 and b{${M}} or c{${M}} unless d{${M}}`);
  assert.equal(injectQueryLabels('max_over_time(x[10m:1m]) + Inf - NaN', L), `max_over_time(x{${M}}[10m:1m]) + Inf - NaN`);
  assert.equal(injectQueryLabels('vector(1) + scalar(y) + time()', L), `vector(1) + scalar(y{${M}}) + time()`);
  assert.equal(injectQueryLabels('histogram_quantile(0.99, sum by (le) (rate(flux_meter_bucket[1m])))', L),
    `histogram_quantile(0.99, sum by (le) (rate(flux_meter_bucket{${M}}[1m])))`);
});

test('strings and comments are copied as they are', () => {
  assert.equal(injectQueryLabels('label_replace(up, "dst", "{x}", "src", "(.*)")', L), `label_replace(up{${M}}, "dst", "{x}", "src", "(.*)")`);
  assert.equal(injectQueryLabels('up{a="}\\"{"} # not a selector: b', L), `up{${M},a="}\\"{"} # not a selector: b`);
});

test('no labels: the query is unchanged; values are escaped as PromQL strings', () => {
  assert.equal(injectQueryLabels('up', []), 'up');
  assert.equal(injectQueryLabels('up', [{ name: 'x', value: 'a"b\\c' }]), 'up{x="a\\"b\\\\c"}');
});

test('an unterminated string or an unbalanced bracket is an InvalidArgumentError', () => {
  assert.throws(() => injectQueryLabels('up{a="b}', L), InvalidArgumentError);
  assert.throws(() => injectQueryLabels('rate(up[5m)', L), InvalidArgumentError);
  assert.throws(() => injectQueryLabels('up{a="b"', L), InvalidArgumentError);
});

test('checkQueryLabels refuses names Prometheus does not allow, and duplicates', () => {
  assert.deepEqual(checkQueryLabels([{ name: 'a_1', value: 'v' }]), [{ name: 'a_1', value: 'v' }]);
  assert.throws(() => checkQueryLabels([{ name: '1a', value: 'v' }]), /prometheus\.labels\[0\]\.name/);
  assert.throws(() => checkQueryLabels([{ name: 'a-b', value: 'v' }]), /not a Prometheus label name/);
  assert.throws(() => checkQueryLabels([{ name: 'a', value: 'v' }, { name: 'a', value: 'w' }]), /given twice/);
});
