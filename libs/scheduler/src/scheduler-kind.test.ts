import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noReads, type FlowReads } from '@sluice/flowcontrol';
import { LoadScheduler } from './load-scheduler.js';
import { ManualClock } from './manual-clock.js';
import { LOAD_SCHEDULER_KIND } from './scheduler-kind.js';

function summary(r: FlowReads): { all: boolean; headers: string[]; body: boolean; baggage: boolean } {
  return { all: r.all, headers: [...r.headers].sort(), body: r.body, baggage: r.baggage };
}

const identity = { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' };

test('a load scheduler\'s kind: it reads its workload filters and its priority, workload and fairness label keys (not the tokens label)', () => {
  const scheduler = new LoadScheduler({
    identity,
    clock: new ManualClock(),
    parameters: {
      workloads: [{ name: 'w', label_matcher: { match_labels: { 'http.request.header.tier': 'gold' } }, parameters: { priority: 1, fairness_key: 'http.request.header.user' } }],
      default_workload_parameters: { priority: 1 },
      tokens_label_key: 'http.request.header.cost', priority_label_key: 'http.request.header.prio', workload_label_key: 'http.method',
    },
  });
  assert.equal(scheduler.kind, LOAD_SCHEDULER_KIND);
  const reads = noReads();
  scheduler.kind.reads(scheduler, reads);
  assert.deepEqual(summary(reads), { all: false, headers: ['prio', 'tier', 'user'], body: false, baggage: true });
  const stranger = noReads();
  LOAD_SCHEDULER_KIND.reads({ kind: LOAD_SCHEDULER_KIND, identity, decide: () => ({ accepted: true, waitMs: 0 }) }, stranger);
  assert.equal(stranger.all, true, 'a limiter of this kind without parameters reads everything');
  scheduler.shutdown();
});
