import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { holdLease, leaseName, type LeaseApi, type LeaseRecord } from './object-lease.js';
import { PodScalers, type PodScalerSpec } from './pod-scalers.js';
import type { ScaleApi } from './scale-api.js';
import { boundedReplicas, planScale, type ScaleObject, type ScalePolicy } from './scale-plan.js';

const POLICY: ScalePolicy = { minReplicas: 1, maxReplicas: 10, scaleOutCooldownMs: 30_000, scaleInCooldownMs: 120_000, dryRun: false };
const WEB: ScaleObject = { namespace: 'shop', kind: 'Deployment', name: 'web' };

test('bounds: rounded, within min and max, never negative', () => {
  assert.equal(boundedReplicas(3.6, POLICY), 4);
  assert.equal(boundedReplicas(50, POLICY), 10);
  assert.equal(boundedReplicas(-5, { minReplicas: 0, maxReplicas: 3 }), 0);
  assert.equal(boundedReplicas(Number.NaN, POLICY), 1);
});

test('plans: scale out and in, cooldowns, dry run', () => {
  assert.deepEqual(planScale(undefined, 3, POLICY, {}, 0), { action: 'none', reason: 'no_decision' });
  assert.deepEqual(planScale(3, 3, POLICY, {}, 0), { action: 'none', reason: 'at_target' });
  assert.deepEqual(planScale(5, 3, POLICY, {}, 0), { action: 'scale', direction: 'out', target: 5 });
  assert.deepEqual(planScale(2, 3, POLICY, {}, 0), { action: 'scale', direction: 'in', target: 2 });
  // After a scale-out: nothing for 30 s, in either direction.
  assert.deepEqual(planScale(7, 5, POLICY, { lastScaleOutMs: 1000 }, 20_000), { action: 'hold', direction: 'out', target: 7, reason: 'cooldown', untilMs: 31_000 });
  assert.deepEqual(planScale(2, 5, POLICY, { lastScaleOutMs: 1000 }, 20_000), { action: 'hold', direction: 'in', target: 2, reason: 'cooldown', untilMs: 31_000 });
  assert.equal(planScale(7, 5, POLICY, { lastScaleOutMs: 1000 }, 31_001).action, 'scale');
  // After a scale-in: no scale-in for 120 s, but a scale-out may go at once.
  assert.equal(planScale(1, 2, POLICY, { lastScaleInMs: 0 }, 60_000).action, 'hold');
  assert.equal(planScale(4, 2, POLICY, { lastScaleInMs: 0 }, 60_000).action, 'scale');
  assert.deepEqual(planScale(4, 2, { ...POLICY, dryRun: true }, {}, 0), { action: 'hold', direction: 'out', target: 4, reason: 'dry_run' });
});

/** A Lease store with resourceVersion checks, as the API server keeps it. */
function leaseStore(): LeaseApi & { records: Map<string, LeaseRecord> } {
  const records = new Map<string, LeaseRecord>();
  let rv = 0;
  return {
    records,
    read: (ns, name) => Promise.resolve(records.get(`${ns}/${name}`)),
    write(ns, name, r) {
      const cur = records.get(`${ns}/${name}`);
      if ((cur === undefined) !== (r.resourceVersion === undefined) || (cur && cur.resourceVersion !== r.resourceVersion)) return Promise.resolve(false);
      records.set(`${ns}/${name}`, { ...r, resourceVersion: String(++rv) });
      return Promise.resolve(true);
    },
  };
}

function scaleStore(initial: number): ScaleApi & { configured: number; writes: number[]; fail?: Error } {
  const s = {
    configured: initial,
    writes: [] as number[],
    fail: undefined as Error | undefined,
    read: () => (s.fail ? Promise.reject(s.fail) : Promise.resolve({ configured: s.configured, actual: s.configured, resourceVersion: '1' })),
    write: (_o: ScaleObject, replicas: number) => { s.writes.push(replicas); s.configured = replicas; return Promise.resolve(); },
  };
  return s;
}

test('one Lease holder per object; another agent takes over after the Lease expires', async () => {
  const leases = leaseStore();
  assert.equal(leaseName(WEB), 'sluice-pod-scaler-deployment-web');
  assert.equal(await holdLease(leases, WEB, 'a', 15, 0), true);
  assert.equal(await holdLease(leases, WEB, 'b', 15, 1000), false);
  assert.equal(await holdLease(leases, WEB, 'a', 15, 5000), true, 'renewed');
  assert.equal(await holdLease(leases, WEB, 'b', 15, 19_000), false);
  assert.equal(await holdLease(leases, WEB, 'b', 15, 20_001), true, 'expired: taken over');
  assert.equal(leases.records.get('shop/sluice-pod-scaler-deployment-web')?.transitions, 1);
  assert.equal(await holdLease(leases, WEB, 'a', 15, 20_002), false);
  // A write racing another (stale resourceVersion) loses.
  const stale = { ...leases.records.get('shop/sluice-pod-scaler-deployment-web'), resourceVersion: '0' };
  assert.equal(await leases.write('shop', 'sluice-pod-scaler-deployment-web', stale), false);
});

test('two agents: only the Lease holder writes /scale; decisions within bounds; metrics; disabled does nothing', async () => {
  let now = 0;
  const leases = leaseStore();
  const scale = scaleStore(2);
  const registry = new Registry();
  const mk = (identity: string, reg?: Registry) => new PodScalers({ enabled: true, scale, leases, identity, registry: reg, now: () => now });
  const a = mk('agent-a', registry);
  const b = mk('agent-b');
  const spec: PodScalerSpec = { policyName: 'p', componentId: 'root.1', object: WEB, policy: POLICY, desired: 5 };
  a.set([spec]);
  await a.kick();
  b.set([spec]);
  await b.kick();
  assert.deepEqual(scale.writes, [5], 'only the holder wrote');
  assert.deepEqual(a.status()[0], { policy_name: 'p', component_id: 'root.1', object: WEB, enabled: true, leader: true, desired: 5, configured: 5, actual: 5, last_action: 'scaled out from 2 to 5', last_error: null });
  assert.equal(b.status()[0].leader, false);
  // Within the scale-out cooldown a lower decision waits; after it, it is written.
  now = 10_000;
  a.set([{ ...spec, desired: 3 }]);
  await a.kick();
  assert.deepEqual(scale.writes, [5]);
  assert.match(a.status()[0].last_action ?? '', /^cooldown in 3/);
  now = 31_000;
  await a.kick();
  assert.deepEqual(scale.writes, [5, 3]);
  const metrics = await registry.metrics();
  assert.match(metrics, /pod_scaler_replicas\{policy_name="p",component_id="root.1",namespace="shop",kind="Deployment",name="web",type="configured"\} 3/);
  assert.match(metrics, /pod_scaler_actions_total\{[^}]*direction="out",result="written"\} 1/);
  assert.match(metrics, /pod_scaler_actions_total\{[^}]*direction="in",result="cooldown"\} 1/);
  assert.match(metrics, /pod_scaler_enabled 1/);
  // An API error is reported and retried.
  scale.fail = new Error('connection refused');
  await a.kick();
  assert.equal(a.status()[0].last_error, 'connection refused');
  scale.fail = undefined;
  await a.kick();
  assert.equal(a.status()[0].last_error, null);
  // Removed from the published set: gone, its series too.
  a.set([]);
  assert.deepEqual(a.status(), []);
  assert.doesNotMatch(await registry.metrics(), /type="configured"/);

  const offRegistry = new Registry();
  const off = new PodScalers({ enabled: false, identity: 'x', registry: offRegistry, scale, leases });
  off.start();
  off.set([{ ...spec, desired: 9 }]);
  await off.kick();
  assert.deepEqual(scale.writes, [5, 3]);
  assert.equal(off.status()[0].enabled, false);
  assert.match(await offRegistry.metrics(), /pod_scaler_enabled 0/);
  await off.shutdown();
});

test('observations: the Lease holder hands on what it sees only when it changes; gone on a failed read, a lost Lease, removal and shutdown', async () => {
  let now = 1000;
  const leases = leaseStore();
  const scale = scaleStore(2);
  let actual = 1;
  const reading = scale.read;
  scale.read = async (o: ScaleObject) => ({ ...(await reading(o)), actual });
  const seen: [string, unknown][] = [];
  const mk = (identity: string) => new PodScalers({ enabled: true, scale, leases, identity, now: () => now, onObservation: (s, o) => seen.push([`${identity} ${s.componentId}`, o]) });
  const a = mk('agent-a');
  const spec: PodScalerSpec = { policyName: 'p', componentId: 'root.1', object: WEB, policy: { ...POLICY, scaleOutCooldownMs: 0, scaleInCooldownMs: 0 } };
  a.set([spec]);
  await a.kick();
  assert.deepEqual(seen, [['agent-a root.1', { leaderSinceMs: 1000, actual: 1, configured: 2 }]], 'before a decision: no desired');
  await a.kick();
  assert.equal(seen.length, 1, 'nothing changed: nothing handed on');
  // A decision of 40 is bounded to 10 and written: the observation says so.
  now = 2000;
  a.set([{ ...spec, desired: 40 }]);
  await a.kick();
  assert.deepEqual(seen.slice(1), [
    ['agent-a root.1', { leaderSinceMs: 1000, actual: 1, configured: 2, desired: 10 }],
    ['agent-a root.1', { leaderSinceMs: 1000, actual: 1, configured: 10, desired: 10 }],
  ]);
  actual = 10;
  await a.kick();
  assert.deepEqual(seen.at(-1), ['agent-a root.1', { leaderSinceMs: 1000, actual: 10, configured: 10, desired: 10 }]);
  const count = seen.length;
  // A failed read: the observation goes (once); back when reads work again.
  scale.fail = new Error('connection refused');
  await a.kick();
  await a.kick();
  assert.deepEqual(seen.slice(count), [['agent-a root.1', undefined]]);
  scale.fail = undefined;
  await a.kick();
  assert.deepEqual(seen.at(-1), ['agent-a root.1', { leaderSinceMs: 1000, actual: 10, configured: 10, desired: 10 }]);
  // The Lease taken over by b (a stopped renewing): a hands on nothing; b observes with its own start.
  now = 40_000;
  const b = mk('agent-b');
  b.set([{ ...spec, desired: 40 }]);
  await b.kick();
  assert.deepEqual(seen.at(-1), ['agent-b root.1', { leaderSinceMs: 40_000, actual: 10, configured: 10, desired: 10 }]);
  await a.kick();
  assert.deepEqual(seen.at(-1), ['agent-a root.1', undefined]);
  // Removed, and shut down: gone.
  b.set([]);
  assert.deepEqual(seen.at(-1), ['agent-b root.1', undefined]);
  b.set([{ ...spec, desired: 40 }]);
  await b.kick();
  assert.equal(seen.at(-1)?.[1] !== undefined, true);
  await b.shutdown();
  assert.deepEqual(seen.at(-1), ['agent-b root.1', undefined]);
  await a.shutdown();
});
