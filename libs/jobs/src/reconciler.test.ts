import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Reconciler } from './reconciler.js';

function fixedDelays(ms: number[]): () => { next(): number } {
  return () => {
    let i = 0;
    return { next: () => ms[Math.min(i++, ms.length - 1)] as number };
  };
}

test('a key marked many times before its turn is reconciled once, in first-marked order', async () => {
  const seen: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const r = new Reconciler<string>({
    reconcile: async (k) => {
      seen.push(k);
      if (k === 'a') await gate;
    },
    retryDelays: fixedDelays([10]),
  });
  r.mark('a');
  r.mark('b');
  r.mark('c');
  r.mark('b');
  r.mark('c');
  assert.equal(r.stats().depth, 2);
  release();
  await r.idle();
  assert.deepEqual(seen, ['a', 'b', 'c']);
  assert.deepEqual(r.stats(), { depth: 0, retrying: 0, reconciled: 3, errors: 0 });
});

test('a failing key is retried after its growing delays, others go on, and a success resets it', async () => {
  const attempts = new Map<string, number>();
  const errors: number[] = [];
  const r = new Reconciler<string>({
    reconcile: async (k) => {
      const n = (attempts.get(k) ?? 0) + 1;
      attempts.set(k, n);
      if (k === 'bad' && n <= 2) throw new Error(`fail ${n}`);
    },
    retryDelays: fixedDelays([5, 20]),
    onError: (_k, _e, delay) => errors.push(delay),
  });
  r.mark('bad');
  r.mark('good');
  await r.idle();
  assert.equal(attempts.get('good'), 1);
  assert.equal(r.stats().retrying, 1);
  for (let waited = 0; attempts.get('bad') !== 3 && waited < 5000; waited += 10) await sleep(10);
  await r.idle();
  assert.equal(attempts.get('bad'), 3);
  assert.deepEqual(errors, [5, 20]);
  assert.deepEqual(r.stats(), { depth: 0, retrying: 0, reconciled: 2, errors: 2 });
});

test('shutdown cancels retries, waits for the reconcile under way, and ignores later marks', async () => {
  let running = 0;
  let calls = 0;
  const r = new Reconciler<number>({
    reconcile: async (k) => {
      calls++;
      running++;
      await sleep(20);
      running--;
      if (k === 1) throw new Error('x');
    },
    retryDelays: fixedDelays([10]),
  });
  r.mark(1);
  r.mark(2);
  await sleep(5);
  await r.shutdown();
  assert.equal(running, 0);
  const after = calls;
  r.mark(3);
  await sleep(40);
  assert.equal(calls, after);
  assert.equal(r.stats().retrying, 0);
  await r.shutdown();
});
