import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SVG_MAX_SERIES, whatIfSvg } from './what-if-svg.js';

test('what-if SVG: one line per label value (most rejections first), points scaled to the busiest bucket, names escaped', () => {
  const svg = whatIfSvg({
    start_unix_ms: 0, bucket_ms: 500,
    series: [{ value: 'alice', flows: [2, 2, 2], rejected: [0, 0, 0] }, { value: 'b<o>b', flows: [6, 6, 6], rejected: [0, 4, 2] }],
  }, 'what-if p at ingress');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  const lines = [...svg.matchAll(/<polyline class="series" data-value="([^"]*)"[^>]*points="([^"]*)"/g)];
  assert.deepEqual(lines.map((m) => m[1]), ['b&lt;o&gt;b', 'alice']);
  const ys = (lines[0]?.[2] ?? '').split(' ').map((p) => Number(p.split(',')[1]));
  assert.ok(ys[1] < ys[2] && ys[2] < ys[0], 'the peak of 4 is highest, 0 lowest');
  assert.match(svg, /b&lt;o&gt;b: 6\/18/);
  assert.match(svg, /rejected per 0.50 s/);
  const many = whatIfSvg({ start_unix_ms: 0, bucket_ms: 100, series: Array.from({ length: 15 }, (_, i) => ({ value: `u${i}`, flows: [1], rejected: [i] })) }, 't');
  assert.equal([...many.matchAll(/<polyline/g)].length, SVG_MAX_SERIES);
  assert.match(whatIfSvg({ start_unix_ms: 0, bucket_ms: 0, series: [] }, 't'), /no samples/);
});
