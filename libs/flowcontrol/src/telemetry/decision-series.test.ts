import { TEST_KINDS } from '../testing/test-support.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Limiter } from '../check/component.js';
import type { CheckDecision } from '../check/decision.js';
import { decisionCounter, decisionSeries, LIMITER_DECISIONS_METRIC } from './decision-series.js';
import { Engine } from '../check/engine.js';

function limiter(kind: Limiter['kind'], id: string, accepted: boolean): Limiter {
  return { kind, identity: { policy_name: 'pol', policy_hash: 'h', component_id: id }, decide: () => ({ accepted, waitMs: 0 }) };
}

test('the engine hands every decision to its listeners; a throwing listener changes nothing', () => {
  const engine = new Engine();
  engine.register(limiter(TEST_KINDS.rate_limiter, 'rl', false), { control_point: 'cp' });
  const seen: CheckDecision[] = [];
  engine.addDecisionListener(() => { throw new Error('broken telemetry'); });
  const remove = engine.addDecisionListener((d) => seen.push(d));
  const d = engine.check({ controlPoint: 'cp', labels: {}, services: [] });
  assert.equal((d as CheckDecision).accepted, false);
  assert.equal(seen.length, 1);
  assert.equal(seen[0], d);
  remove();
  engine.check({ controlPoint: 'cp', labels: {}, services: [] });
  assert.equal(seen.length, 1, 'removed');
});

test('decisionSeries: one series per limiter, labelled with the flow\'s decision and whether this limiter dropped it', () => {
  const engine = new Engine();
  engine.register(limiter(TEST_KINDS.rate_limiter, 'rl', true), { control_point: 'cp' });
  engine.register(limiter(TEST_KINDS.scheduler, 'sch', false), { control_point: 'cp' });
  const d = engine.check({ controlPoint: 'cp', labels: {}, services: [] }) as CheckDecision;
  const out: [string, Readonly<Record<string, string>>, number][] = [];
  decisionSeries(d, (m, l, v) => out.push([m, l, v]));
  assert.equal(out.length, 2);
  const rl = out.find(([, l]) => l.component_id === 'rl');
  assert.deepEqual(rl, [LIMITER_DECISIONS_METRIC, {
    control_point: 'cp', policy_name: 'pol', component_id: 'rl', component_kind: 'rate_limiter',
    decision_type: 'DECISION_TYPE_REJECTED', limiter_dropped: 'false',
  }, 1]);
  assert.equal(out.find(([, l]) => l.component_id === 'sch')?.[1].limiter_dropped, 'true');
});

test('decisionCounter counts what decisionSeries emits, interning each label set once', () => {
  const engine = new Engine();
  let rlAccepts = true;
  engine.register({ ...limiter(TEST_KINDS.rate_limiter, 'rl', true), decide: () => ({ accepted: rlAccepts, waitMs: 0 }) }, { control_point: 'cp' });
  engine.register(limiter(TEST_KINDS.scheduler, 'sch', true), { control_point: 'cp' });
  engine.register(limiter(TEST_KINDS.rate_limiter, 'rl2', true), { control_point: 'other' });
  interface Cell { key: string; sum: number }
  const interned: Cell[] = [];
  const counter = {
    series: (m: string, l: Readonly<Record<string, string>>): Cell => {
      const c = { key: `${m} ${JSON.stringify(l)}`, sum: 0 };
      interned.push(c);
      return c;
    },
    add: (c: Cell, v: number) => { c.sum += v; },
  };
  const count = decisionCounter<Cell>();
  const expected = new Map<string, number>();
  const flows = [true, true, false, true, false, true];
  for (const ok of flows) {
    rlAccepts = ok;
    for (const cp of ['cp', 'other']) {
      const d = engine.check({ controlPoint: cp, labels: {}, services: [] }) as CheckDecision;
      count(d, undefined, counter);
      decisionSeries(d, (m, l, v) => {
        const k = `${m} ${JSON.stringify(l)}`;
        expected.set(k, (expected.get(k) ?? 0) + v);
      });
    }
  }
  assert.equal(new Set(interned.map((c) => c.key)).size, interned.length, 'each label set interned once');
  assert.equal(interned.length, expected.size);
  assert.deepEqual(new Map(interned.map((c) => [c.key, c.sum])), expected);
  assert.equal(interned.find((c) => c.key.includes('"component_id":"rl"') && c.key.includes('"limiter_dropped":"true"'))?.sum, 2);
});
