import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prometheusBaseUrl, PromqlResultError, valueOfAnswer } from './promql-query.js';

const ok = (resultType: string, result: unknown): unknown => ({ status: 'success', data: { resultType, result } });

test('a scalar or a one-element vector is the value', () => {
  assert.equal(valueOfAnswer(ok('scalar', [1700000000, '42.5'])), 42.5);
  assert.equal(valueOfAnswer(ok('vector', [{ metric: { job: 'x' }, value: [1700000000, '7'] }])), 7);
});

test('anything else is a PromqlResultError: none or several series, a matrix, a string, NaN, Inf, an error, garbage', () => {
  const bad: unknown[] = [
    ok('vector', []),
    ok('vector', [{ metric: {}, value: [1, '1'] }, { metric: {}, value: [1, '2'] }]),
    ok('matrix', [{ metric: {}, values: [[1, '1']] }]),
    ok('string', [1, 'x']),
    ok('scalar', [1, 'NaN']),
    ok('scalar', [1, '+Inf']),
    ok('scalar', [1]),
    ok('vector', [{ metric: {} }]),
    { status: 'error', errorType: 'bad_data', error: 'parse error' },
    null,
    'text',
    { status: 'success' },
  ];
  for (const b of bad) assert.throws(() => valueOfAnswer(b), PromqlResultError, JSON.stringify(b));
});

test('prometheus.address: host:port gets http://, a URL keeps its scheme and path', () => {
  assert.equal(prometheusBaseUrl('127.0.0.1:9090'), 'http://127.0.0.1:9090');
  assert.equal(prometheusBaseUrl('https://prom.example/base/'), 'https://prom.example/base');
  assert.equal(prometheusBaseUrl('prometheus'), 'http://prometheus');
});
