/**
 * The cost of dist_cache.auth: 3 members (3 processes) without a key against
 * 3 members with one (every operations frame and membership packet signed
 * and checked, HMAC-SHA256), each with `concurrency` takes in flight over
 * the same labels, in alternating measured rounds after a warm-up of both.
 * Prints decisions/s, p99 take latency and CPU time per decision of each
 * side and their ratios (with ÷ without).
 */
import { HarnessProcess } from '@sluice/distcache/testing';
import { loadAverage } from './support/ab-rounds.js';
import { printResult } from './support/result-line.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARMUP_MS = 2000;
const CONCURRENCY = 64;
const LABELS = 1000;
const BIG = { capacity: 1e12, fillAmount: 1e12, intervalMs: 1000, continuousFill: true };

async function members(group: string, key: string | undefined): Promise<HarnessProcess[]> {
  const ps: HarnessProcess[] = [];
  for (let i = 0; i < 3; i++) {
    const p = new HarnessProcess({ id: `${group}-${i}`, group, seeds: i === 0 ? [] : [ps[0].ready.gossipAddr], membership: {}, ...(key === undefined ? {} : { key }) });
    await p.started();
    ps.push(p);
  }
  for (let tries = 0; tries < 100; tries++) {
    const rings = await Promise.all(ps.map(async (p) => ((await p.send({ op: 'stats' })).ring as string[]).length));
    if (rings.every((r) => r === 3)) {
      await new Promise((r) => setTimeout(r, 5500)); // past the handover window: no take waits on a pull
      return ps;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${group}: members never formed one ring`);
}

const cmd = (durationMs: number): Record<string, unknown> => ({ op: 'bench', params: BIG, durationMs, concurrency: CONCURRENCY, labels: LABELS });
const num = (r: Record<string, unknown>, k: string): number => (typeof r[k] === 'number' ? r[k] : 0);

interface Side { decisions: number; cpuUs: number; p99: number[] }

async function round(ps: HarnessProcess[], side: Side): Promise<number> {
  const rs = await Promise.all(ps.map((p) => p.send(cmd(DURATION_MS), 60_000)));
  const decided = rs.reduce((a, r) => a + num(r, 'count') - num(r, 'fallbacks'), 0);
  side.decisions += decided;
  side.cpuUs += rs.reduce((a, r) => a + num(r, 'cpuUs'), 0);
  side.p99.push(Math.max(...rs.map((r) => num(r, 'p99'))));
  return decided / (DURATION_MS / 1000);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (x: number, d = 2): string => x.toFixed(d);

const loadBefore = loadAverage();
const plain = await members('plain', undefined);
const keyed = await members('keyed', 'bench-group-key-0123456789abcdef');
try {
  await Promise.all([...plain, ...keyed].map((p) => p.send(cmd(WARMUP_MS), 60_000)));
  const off: Side = { decisions: 0, cpuUs: 0, p99: [] };
  const on: Side = { decisions: 0, cpuUs: 0, p99: [] };
  const perRound: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // which side goes first alternates, so a trend of the machine falls on both
    let x: number, y: number;
    if (r % 2 === 0) {
      x = await round(plain, off);
      y = await round(keyed, on);
    } else {
      y = await round(keyed, on);
      x = await round(plain, off);
    }
    perRound.push(fmt(y / x));
  }
  const secs = (ROUNDS * DURATION_MS) / 1000;
  const ratio = on.decisions / off.decisions;
  const cpuOff = off.cpuUs / off.decisions;
  const cpuOn = on.cpuUs / on.decisions;
  const loadAfter = loadAverage();
  console.log(`${ROUNDS} alternating rounds of ${DURATION_MS} ms per side after a ${WARMUP_MS} ms warm-up; ${CONCURRENCY} takes in flight per member over ${LABELS} labels; load average ${loadBefore} before, ${loadAfter} after`);
  console.log(`without a key: ${fmt(off.decisions / secs, 0)} decisions/s, p99 ${fmt(median(off.p99))} ms, CPU ${fmt(cpuOff, 1)} us per decision (the 3 members)`);
  console.log(`with a key:    ${fmt(on.decisions / secs, 0)} decisions/s, p99 ${fmt(median(on.p99))} ms, CPU ${fmt(cpuOn, 1)} us per decision (the 3 members)`);
  console.log(`ratio decisions/s with/without: ${fmt(ratio)} (per round ${perRound.join(' ')}); CPU per decision with/without: ${fmt(cpuOn / cpuOff)}`);
  printResult('distcache-auth', {
    decisions_per_s_off: Math.round(off.decisions / secs), decisions_per_s_on: Math.round(on.decisions / secs), ratio: fmt(ratio),
    cpu_us_off: fmt(cpuOff, 1), cpu_us_on: fmt(cpuOn, 1), cpu_ratio: fmt(cpuOn / cpuOff), p99_ms_off: fmt(median(off.p99)), p99_ms_on: fmt(median(on.p99)), load: loadAfter,
  });
} finally {
  for (const p of [...plain, ...keyed]) {
    p.kill('SIGTERM');
    await p.exited();
  }
}
