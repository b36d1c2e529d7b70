import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LimiterResult } from '@sluice/flowcontrol';
import { LocalTokenBucketStore, type TakeResult, type TokenBucketStore } from '@sluice/tokenbucket';
import { ManualClock } from './manual-clock.js';
import { QuotaScheduler } from './quota-scheduler.js';

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' };
const parameters = {
  workloads: [
    { name: 'gold', label_matcher: { match_labels: { tier: 'gold' } }, parameters: { priority: 100, tokens: 2 } },
    { name: 'slow', label_matcher: { match_labels: { tier: 'slow' } }, parameters: { priority: 50, queue_timeout_ms: 120, fairness_key: 'user' } },
  ],
  default_workload_parameters: { priority: 1 },
  priority_label_key: 'prio',
};

const flowArb = fc.record({
  gapMs: fc.integer({ min: 0, max: 400 }),
  user: fc.constantFrom('a', 'b', undefined),
  tier: fc.constantFrom('gold', 'slow', 'bulk'),
  tokens: fc.constantFrom(undefined, '1', '3', '2.5', 'x'),
  prio: fc.constantFrom(undefined, '7', '-1'),
  deadlineInMs: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
  cancelAfterMs: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
});
type Flow = typeof flowArb extends fc.Arbitrary<infer T> ? T : never;

/** A store that answers some takes with a promise (an owner elsewhere), as the distributed cache may. */
class SometimesAsync implements TokenBucketStore {
  private n = 0;
  constructor(private readonly inner: LocalTokenBucketStore, private readonly every: number) {}
  take(key: string, tokens: number, nowMs: number): TakeResult | Promise<TakeResult> {
    const r = this.inner.take(key, tokens, nowMs);
    return this.every > 0 && ++this.n % this.every === 0 ? Promise.resolve(r) : r;
  }
  giveBack(key: string, tokens: number, nowMs: number): void { this.inner.giveBack(key, tokens, nowMs); }
  setParams(p: Parameters<TokenBucketStore['setParams']>[0]): void { this.inner.setParams(p); }
}

interface Answer { flow: number; at: number; result: LimiterResult }

/** Every flow's answer (in the order they came, with the time each came) from a scheduler with or without its fast path. */
async function run(flows: readonly Flow[], fastPath: boolean, capacity: number, asyncEvery: number): Promise<Answer[]> {
  const clock = new ManualClock();
  // whole-interval fill: a refill is due at an exact time (a continuous fill can leave a head short by a
  // fraction of a token whose wait is below what the simulated clock can add to an epoch time)
  const store = new SometimesAsync(new LocalTokenBucketStore({ capacity, fillAmount: capacity, intervalMs: 250, continuousFill: false }), asyncEvery);
  const s = new QuotaScheduler({ identity, parameters, store, clock, maxWaitMs: 500, passThrough: false, labelKey: 'user', fastPath });
  const answers: Answer[] = [];
  const pending: Promise<void>[] = [];
  for (const [i, f] of flows.entries()) {
    await clock.run(f.gapMs);
    const labels: Record<string, string> = { tier: f.tier };
    if (f.user !== undefined) labels.user = f.user;
    if (f.tokens !== undefined) labels.tokens = f.tokens;
    if (f.prio !== undefined) labels.prio = f.prio;
    const abort = f.cancelAfterMs === undefined ? undefined : new AbortController();
    if (abort !== undefined) clock.setTimer(() => abort.abort(), f.cancelAfterMs as number);
    const ctx = { nowMs: clock.now(), deadlineMs: f.deadlineInMs === undefined ? undefined : clock.now() + f.deadlineInMs, ...(abort ? { signal: abort.signal } : {}) };
    const r = s.decide(labels, ctx);
    if (r instanceof Promise) pending.push(r.then((result) => { answers.push({ flow: i, at: clock.now(), result }); }));
    else answers.push({ flow: i, at: clock.now(), result: r });
  }
  await clock.run(2000);
  await Promise.all(pending);
  assert.equal(s.waiting(), 0, 'every flow answered');
  s.shutdown();
  return answers;
}

test('property: a quota scheduler decides every flow the same with and without its fast path (queues, timeouts, deadlines, cancels, async takes)', async () => {
  let immediate = 0;
  let waited = 0;
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(flowArb, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom(0, 3), async (flows, capacity, asyncEvery) => {
      const fast = await run(flows, true, capacity, asyncEvery);
      const general = await run(flows, false, capacity, asyncEvery);
      assert.deepEqual(fast, general);
      for (const a of fast) {
        if (!a.result.accepted) rejected++;
        else if (a.result.waitMs > 0) waited++;
        else if (a.result.tokens !== undefined) immediate++;
      }
    }),
    { numRuns: 100 },
  );
  assert.ok(immediate > 0 && waited > 0 && rejected > 0, `every outcome was exercised (${immediate} at once, ${waited} waited, ${rejected} turned away)`);
});

test('the fast path admits with the workload\'s priority and tokens, a label\'s priority and tokens, and makes no queue', () => {
  const clock = new ManualClock();
  const store = new LocalTokenBucketStore({ capacity: 100, fillAmount: 100, intervalMs: 1000, continuousFill: true });
  const s = new QuotaScheduler({ identity, parameters, store, clock, passThrough: false, labelKey: 'user' });
  const ctx = { nowMs: clock.now(), deadlineMs: undefined };
  assert.deepEqual(s.decide({ user: 'a', tier: 'gold' }, ctx), { accepted: true, waitMs: 0, tokens: 2, label: 'a', remaining: 98, current: 100, workloadIndex: '0', priority: 100 });
  assert.deepEqual(s.decide({ user: 'a', tier: 'bulk', prio: '7', tokens: '2.5' }, ctx), { accepted: true, waitMs: 0, tokens: 3, label: 'a', remaining: 95, current: 98, workloadIndex: 'default', priority: 7 });
  assert.equal(s.waiting(), 0);
  assert.equal((s as unknown as { queues: Map<string, unknown> }).queues.size, 0, 'no queue is made for a flow admitted at once');
});
