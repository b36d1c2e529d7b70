import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LimiterResult } from '@sluice/flowcontrol';
import { LoadScheduler } from './load-scheduler.js';
import { ManualClock } from './manual-clock.js';
import { TokenPacer } from './token-pacer.js';

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' };

const TIMEOUTS = [undefined, 0, 30, 120, 400] as const;

const flowArb = fc.record({
  gapMs: fc.integer({ min: 0, max: 50 }),
  priority: fc.integer({ min: 1, max: 4 }),
  tokens: fc.integer({ min: 1, max: 5 }),
  timeout: fc.integer({ min: 0, max: TIMEOUTS.length - 1 }),
  deadlineInMs: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
});

test('property: no flow waits past its queue timeout or its deadline, and every flow is answered', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(flowArb, { minLength: 1, maxLength: 60 }), fc.double({ min: 0, max: 2, noNaN: true }), async (flows, multiplier) => {
      const clock = new ManualClock();
      const s = new LoadScheduler({
        identity,
        clock,
        maxWaitMs: 10_000,
        parameters: {
          workloads: [1, 2, 3, 4].flatMap((p) => TIMEOUTS.map((t, ti) => ({
            name: `p${p}t${ti}`,
            label_matcher: { match_labels: { p: String(p), t: String(ti) } },
            parameters: { priority: p, ...(t === undefined ? {} : { queue_timeout_ms: t }) },
          }))),
        },
        decision: { load_multiplier: multiplier, pass_through: false },
      });
      const answers: { limit: number; at?: number; r?: LimiterResult }[] = [];
      for (const f of flows) {
        await clock.run(f.gapMs);
        const now = clock.now();
        const deadlineMs = f.deadlineInMs === undefined ? undefined : now + f.deadlineInMs;
        const timeoutMs = TIMEOUTS[f.timeout];
        const limit = Math.min(timeoutMs === undefined ? Infinity : now + timeoutMs, deadlineMs ?? Infinity, now + 10_000);
        const a: { limit: number; at?: number; r?: LimiterResult } = { limit };
        answers.push(a);
        const r = s.decide({ p: String(f.priority), t: String(f.timeout), tokens: String(f.tokens) }, { nowMs: now, deadlineMs });
        if (r instanceof Promise) void r.then((res) => { a.at = clock.now(); a.r = res; });
        else { a.at = now; a.r = r; }
      }
      for (let i = 0; i < 200 && answers.some((a) => a.r === undefined); i++) await clock.run(50);
      for (const a of answers) {
        assert.ok(a.r !== undefined, 'answered');
        assert.ok((a.at as number) <= a.limit, `answered at ${a.at} past its limit ${a.limit}`);
      }
      s.shutdown();
    }),
    { numRuns: 150 },
  );
});

test('property: admitted tokens never exceed the rate over any window (plus the burst allowance) by more than one flow', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(0, 0, 20, 100),
      fc.double({ min: 0.001, max: 2, noNaN: true }),
      fc.array(fc.record({ gapMs: fc.double({ min: 0, max: 30, noNaN: true }), tokens: fc.integer({ min: 1, max: 20 }) }), { minLength: 1, maxLength: 300 }),
      fc.integer({ min: 1, max: 500 }),
      (burstMs, rate, arrivals, windowMs) => {
        let now = 0;
        const pacer = new TokenPacer(now, burstMs);
        const admitted: { at: number; tokens: number }[] = [];
        let maxTokens = 0;
        for (const a of arrivals) {
          now += a.gapMs;
          pacer.refill(now, rate);
          if (pacer.canAdmit()) {
            pacer.take(a.tokens);
            admitted.push({ at: now, tokens: a.tokens });
            maxTokens = Math.max(maxTokens, a.tokens);
          }
        }
        for (let i = 0; i < admitted.length; i++) {
          let sum = 0;
          for (let j = i; j < admitted.length && admitted[j].at - admitted[i].at <= windowMs; j++) sum += admitted[j].tokens;
          assert.ok(sum <= rate * (windowMs + burstMs) + maxTokens + 1e-9, `window from ${admitted[i].at}: ${sum} > ${rate} × (${windowMs} + ${burstMs}) + ${maxTokens}`);
        }
      },
    ),
    { numRuns: 300 },
  );
});
