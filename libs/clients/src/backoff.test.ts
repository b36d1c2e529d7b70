import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff } from './backoff.js';

const CONFIG = { base_delay: '100ms', max_delay: '1s', multiplier: 2, jitter: 0.2 };

test('Backoff grows by the multiplier from base_delay up to max_delay (no spread at random 0.5)', () => {
  const mid = new Backoff(CONFIG, () => 0.5);
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => mid.next()), [100, 200, 400, 800, 1000, 1000]);
  assert.equal(mid.current, 1000);
});

test('Backoff jitter stays within ±jitter of the un-jittered delay, and reaches both ends', () => {
  assert.equal(new Backoff(CONFIG, () => 0).next(), 80);
  assert.equal(new Backoff(CONFIG, () => 1).next(), 120);
  let seed = 7;
  const lcg = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  const b = new Backoff({ ...CONFIG, max_delay: '100s' }, lcg);
  for (let i = 0; i < 12; i++) {
    const base = b.current;
    const d = b.next();
    assert.ok(d >= base * 0.8 && d <= base * 1.2, `attempt ${i}: ${d} outside ${base} ±20%`);
  }
});

test('Backoff never exceeds max_delay, even with jitter pushing up at the cap', () => {
  const b = new Backoff({ ...CONFIG, jitter: 0.5 }, () => 1);
  const delays = Array.from({ length: 10 }, () => b.next());
  assert.ok(delays.every((d) => d <= 1000), delays.join(','));
  assert.equal(delays.at(-1), 1000);
});

test('Backoff reset starts the sequence over at base_delay', () => {
  const b = new Backoff(CONFIG, () => 0.5);
  b.next(); b.next(); b.next();
  assert.equal(b.current, 800);
  b.reset();
  assert.equal(b.current, 100);
  assert.equal(b.next(), 100);
});

test('Backoff refuses settings it cannot use, naming the field', () => {
  const field = (name: string) => (e: Error & { field?: string }) => e.field === `backoff.${name}`;
  assert.throws(() => new Backoff({ ...CONFIG, base_delay: '2s', max_delay: '1s' }), field('max_delay'));
  assert.throws(() => new Backoff({ ...CONFIG, multiplier: -1 }), field('multiplier'));
  assert.throws(() => new Backoff({ ...CONFIG, jitter: -0.1 }), field('jitter'));
  assert.throws(() => new Backoff({ ...CONFIG, base_delay: 'soon' }), field('base_delay'));
});
