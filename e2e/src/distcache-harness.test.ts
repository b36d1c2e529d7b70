import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HarnessProcess } from '@sluice/distcache/testing';

/**
 * Fault tests of the distributed counter cache with real processes (one
 * member + store each, the distcache harness), on loopback.
 */
const NO_REFILL = (capacity: number) => ({ capacity, fillAmount: 0, intervalMs: 60_000, continuousFill: true });

async function start(t: { after(fn: () => unknown): void }, n: number, extra: Record<string, unknown> = {}, group = 'g1', seeds: string[] = []): Promise<HarnessProcess[]> {
  const ps: HarnessProcess[] = [];
  for (let i = 0; i < n; i++) {
    const p = new HarnessProcess({ id: `${group}-m${i}`, group, seeds: i === 0 ? seeds : [...seeds, ps[0].ready.gossipAddr], ...extra });
    t.after(async () => {
      p.kill();
      await p.exited();
    });
    await p.started();
    ps.push(p);
  }
  return ps;
}

async function ringSizes(ps: HarnessProcess[]): Promise<number[]> {
  return Promise.all(ps.map(async (p) => ((await p.send({ op: 'stats' })).ring as string[]).length));
}

async function untilRing(ps: HarnessProcess[], size: number, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const sizes = await ringSizes(ps);
    if (sizes.every((s) => s === size)) return;
    if (Date.now() > end) throw new Error(`rings ${sizes} never reached ${size}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function takeAll(ps: HarnessProcess[], label: string, count: number, params: object): Promise<number> {
  const rs = await Promise.all(ps.map((p) => p.send({ op: 'take', label, count, params })));
  return rs.reduce((a, r) => a + (r.admitted as number), 0);
}

/** Owners get 2 s in tests that count tokens: on a starved machine a fail-open fallback must not pass for a broken limit. */
const PATIENT = { ownerTimeoutMs: 2000 };

test('a limit of 30 holds across 3 processes: exactly 30 admitted with no refill', async (t) => {
  const ps = await start(t, 3, PATIENT);
  await untilRing(ps, 3);
  for (const label of ['a', 'b', 'c']) assert.equal(await takeAll(ps, label, 20, NO_REFILL(30)), 30, label);
});

test('kill -9 of an owner under traffic: every take answered, overshoot at most one bucket', async (t) => {
  const ps = await start(t, 3);
  await untilRing(ps, 3);
  const params = NO_REFILL(50);
  const owner = (await ps[0].send({ op: 'owner', label: 'hot', params })).owner as string;
  const victim = ps.find((p) => p.ready.id === owner) as HarnessProcess;
  const survivors = ps.filter((p) => p !== victim);
  const traffic = survivors.map((p) => p.send({ op: 'traffic', label: 'hot', ratePerSec: 100, durationMs: 3000, params }));
  await new Promise((r) => setTimeout(r, 150));
  victim.kill('SIGKILL');
  const rs = await Promise.all(traffic);
  const admitted = rs.reduce((a, r) => a + (r.admitted as number), 0);
  const fallbacks = rs.reduce((a, r) => a + (r.fallbacks as number), 0);
  t.diagnostic(`admitted ${admitted}, fallbacks ${fallbacks}`);
  assert.equal(rs.reduce((a, r) => a + (r.errors as number), 0), 0);
  assert.ok(admitted >= 50, `admitted ${admitted}`);
  // at most one bucket over, plus the takes that were waiting on the dead owner (failed open, counted)
  assert.ok(admitted <= 100 + fallbacks, `admitted ${admitted}: more than one bucket over the limit of 50 (fallbacks ${fallbacks})`);
  // bounded by the owner deadline, not hung on the dead owner (generous: a loaded machine runs timers late)
  for (const r of rs) assert.ok((r.maxMs as number) < 2500, `a take waited ${r.maxMs as number} ms`);
  await untilRing(survivors, 2);
});

test('a member that joins under traffic: the limit still holds', async (t) => {
  const ps = await start(t, 2, PATIENT);
  await untilRing(ps, 2);
  const params = NO_REFILL(60);
  const traffic = ps.map((p) => p.send({ op: 'traffic', label: 'j', ratePerSec: 40, durationMs: 2500, params }));
  await new Promise((r) => setTimeout(r, 600));
  const late = new HarnessProcess({ id: 'g1-late', group: 'g1', seeds: [ps[0].ready.gossipAddr], ...PATIENT });
  t.after(async () => {
    late.kill();
    await late.exited();
  });
  await late.started();
  const lateTraffic = late.send({ op: 'traffic', label: 'j', ratePerSec: 40, durationMs: 1500, params });
  const rs = await Promise.all([...traffic, lateTraffic]);
  const admitted = rs.reduce((a, r) => a + (r.admitted as number), 0);
  const fallbacks = rs.reduce((a, r) => a + (r.fallbacks as number), 0);
  t.diagnostic(`admitted ${admitted}, fallbacks ${fallbacks}`);
  assert.equal(rs.reduce((a, r) => a + (r.errors as number), 0), 0);
  // within a tenth of the limit, plus the takes an owner did not answer in time on a loaded machine
  // (decided on the member's share, counted; as in the kill -9 test)
  assert.ok(admitted >= 60 && admitted <= 60 + 6 + fallbacks, `admitted ${admitted} against 60 (fallbacks ${fallbacks})`);
  await untilRing([...ps, late], 3);
});

test('a paused member (SIGSTOP) is routed around without errors and rejoins after SIGCONT', async (t) => {
  const ps = await start(t, 3);
  await untilRing(ps, 3);
  const paused = ps[2];
  paused.kill('SIGSTOP');
  t.after(() => paused.kill('SIGCONT'));
  const params = NO_REFILL(1_000_000);
  const rs = await Promise.all(ps.slice(0, 2).map((p) => p.send({ op: 'traffic', label: `p${Math.random()}`, ratePerSec: 50, durationMs: 2000, params })));
  for (const r of rs) {
    assert.equal(r.errors, 0);
    assert.equal(r.rejected, 0);
    // routed around within the owner deadline (100 ms), generous for a loaded machine's late timers
    assert.ok((r.maxMs as number) < 2000, `a take waited ${r.maxMs as number} ms`);
  }
  await untilRing(ps.slice(0, 2), 2);
  paused.kill('SIGCONT');
  await untilRing(ps, 3, 15_000);
  const before = (await Promise.all(ps.map((p) => p.send({ op: 'stats' })))).reduce((a, s) => a + (s.fallbacks as number), 0);
  const healed = await takeAll(ps, 'after-heal', 20, NO_REFILL(30));
  const fell = (await Promise.all(ps.map((p) => p.send({ op: 'stats' })))).reduce((a, s) => a + (s.fallbacks as number), 0) - before;
  assert.ok(healed >= 30 && healed <= 30 + fell, `admitted ${healed} after the heal (fallbacks ${fell})`);
  if (fell === 0) assert.equal(healed, 30);
});

test('two groups seeded with each other never merge', async (t) => {
  const a = await start(t, 2, {}, 'ga');
  const b = await start(t, 1, {}, 'gb', [a[0].ready.gossipAddr]);
  await a[1].send({ op: 'join', seeds: [b[0].ready.gossipAddr] });
  await untilRing(a, 2);
  await new Promise((r) => setTimeout(r, 1500));
  assert.deepEqual(await ringSizes(a), [2, 2]);
  assert.deepEqual(await ringSizes(b), [1]);
  const sb = await b[0].send({ op: 'stats' });
  assert.ok((sb.droppedPackets as number) > 0, 'the foreign packets were not counted');
  assert.equal((sb.members as unknown[]).length, 1);
});
