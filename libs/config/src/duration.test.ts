import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration, tryParseDuration, formatDuration } from './duration.js';

test('parses Go durations', () => {
  const cases: Array<[string, number]> = [
    ['0', 0], ['0s', 0], ['1s', 1000], ['120s', 120_000], ['1m30s', 90_000], ['250ms', 250],
    ['1.5h', 5_400_000], ['-1s', -1000], ['+2m', 120_000], ['100us', 0.1], ['100µs', 0.1], ['1h2m3s4ms', 3_723_004], ['.5s', 500],
  ];
  for (const [text, ms] of cases) assert.equal(parseDuration(text), ms, text);
});

test('refuses what Go refuses', () => {
  for (const text of ['', '1', 's', '1x', '1 s', '--1s', '1s ', 'ten seconds', '1.s.', '-', '1d']) {
    assert.equal(tryParseDuration(text), undefined, text);
  }
  assert.throws(() => parseDuration('abc'), /invalid duration "abc"/);
});

test('refuses durations past the int64 nanoseconds Go has (no Infinity, no overflow)', () => {
  assert.equal(parseDuration('2562047h'), 2_562_047 * 3_600_000);
  assert.equal(parseDuration('-2562047h47m16s'), -9_223_372_036_000);
  for (const text of ['2562048h', '-2562048h', '9223372036855ms', `1${'0'.repeat(400)}s`, `${'9'.repeat(320)}h`]) {
    assert.equal(tryParseDuration(text), undefined, text);
  }
});

test('formats round-trip', () => {
  for (const ms of [0, 250, 1000, 90_000, 3_723_000, -1000]) assert.equal(parseDuration(formatDuration(ms)), ms);
});

test('a well-formed duration past Go\'s maximum is told apart from one that is not a duration', async () => {
  const { durationProblem, durationProblemMessage, MAX_DURATION_TEXT, parseDuration } = await import('./duration.js');
  assert.equal(durationProblem('100000000h'), 'too-large');
  assert.equal(durationProblem(`${'9'.repeat(400)}h`), 'too-large');
  assert.equal(durationProblem('10 parsecs'), 'syntax');
  assert.equal(durationProblem('2562047h'), undefined);
  assert.match(durationProblemMessage('100000000h') ?? '', new RegExp(`too large: at most ${MAX_DURATION_TEXT.replace('.', '\\.')}`));
  assert.throws(() => parseDuration('100000000h'), /too large: at most 2562047h47m16\.854775807s/);
  assert.throws(() => parseDuration('1x'), /invalid duration "1x": want Go syntax/);
});
