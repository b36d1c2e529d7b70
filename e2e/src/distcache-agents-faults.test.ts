// The distributed counter cache with real agents under faults: an agent cut
// off by a network partition (in a network namespace the test makes, its
// link taken down, then up again); an agent frozen by SIGSTOP (a paused
// process whose sockets stay open) is routed around and rejoins; agent
// groups on one etcd never merge; a taken dist-cache port stops the agent
// with the key and variable named.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startEtcd } from './support/etcd.js';
import { holdPort, processEnv, ROOT, until } from './support/processes.js';
import { forwardTcp, makeNetns, netnsUnavailable } from './support/netns.js';
import {
  burst, distCacheEnv, ownerOf, publishLimit, startDistAgent, startDistAgentIn, startDistAgents, stats, sum, traffic, untilRing, type DistAgent,
} from './support/dist-agents.js';

async function fallbacks(agents: DistAgent[]): Promise<number> {
  return (await Promise.all(agents.map(stats))).reduce((s, x) => s + x.fallbacks, 0);
}

/** The first label `<tag>-<i>` whose bucket `owner` holds in `ring`. */
function labelOwnedBy(ring: string[], owner: string, tag: string): string {
  for (let i = 0; i < 10_000; i++) if (ownerOf(ring, 'p', 'root.0', `${tag}-${i}`) === owner) return `${tag}-${i}`;
  throw new Error(`no label of ${owner}`);
}

const unavailable = netnsUnavailable();

test('a network partition: one agent in a network namespace loses its link, the others go on without it, it admits at most its share; after the heal it rejoins and the buckets are reconciled', { skip: unavailable }, async (t) => {
  const C = 30;
  const ns = makeNetns(t);
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const put = async (k: string, v: string): Promise<void> => { await raw.put(k).value(v); };
  // etcd listens on loopback: the agent in the namespace reaches it through a forwarder on the data link's root end
  const fwd = await forwardTcp(t, ns.data.rootAddr, { host: '127.0.0.1', port: etcd.clientPort });
  const a = await startDistAgent(t, etcd, 'default', distCacheEnv(ns.data.rootAddr));
  const b = await startDistAgent(t, etcd, 'default', distCacheEnv(ns.data.rootAddr));
  const p = await startDistAgentIn(t, ns, `http://${fwd.host}:${fwd.port}`);
  const agents = [a, b, p];
  const ring = await untilRing(agents, 3, 30_000);
  const [aId, pId] = [(await stats(a)).id, (await stats(p)).id];
  assert.ok(pId.startsWith(`${ns.data.nsAddr}:`), `the partitioned agent's id ${pId} is on its namespace's link`);
  await publishLimit(put, agents, 'default', 'p', C);
  const ofA = labelOwnedBy(ring, aId, 'a');
  const ofP = labelOwnedBy(ring, pId, 'p');
  const ofA2 = labelOwnedBy(ring, aId, 'a2');
  // Before: half of the bucket p owns is spent (on p itself: no hop, no fallback).
  assert.equal((await burst(p, ofP, C / 2)).accepted, C / 2);

  // Partition, under traffic on the others (fresh labels: nothing may be refused or fail).
  let n = 0;
  const flows = [a, b].map((x) => traffic(x, () => `bg-${n++}`, 20));
  const cut = Date.now();
  ns.partition();
  // ... and on the cut-off agent, one label of a's all along: its decisions fall back to one share, also while its
  // ring holds b but no longer a (a declared dead first) and the key moved to it: b does not answer its pull
  const onP = traffic(p, ofA2, 40);
  const seen = new Set<string>();
  await until(async () => {
    const m = (await stats(a)).members.find((x) => x.id === pId);
    seen.add(m?.state ?? 'unknown');
    return m?.state === 'dead';
  }, 20_000, 'a sees p dead');
  const deadAfter = Date.now() - cut;
  assert.ok(seen.has('suspect'), `p was declared dead without being suspected first (states seen: ${[...seen].join(', ')})`);
  assert.deepEqual(await untilRing([a, b], 2), [...ring].filter((id) => id !== pId).sort());
  await until(async () => (await stats(p)).ring.length === 1, 20_000, 'p alone in its ring');
  const during = sum(await Promise.all(flows.map((f) => f.stop())));
  const pDuring = await onP.stop();
  t.diagnostic(`p dead for a after ${deadAfter} ms (states seen ${[...seen].join(' → ')}); under traffic meanwhile: accepted ${during.accepted}, rejected ${during.rejected}, errors ${during.errors}, slowest ${during.maxMs} ms`);
  assert.equal(during.errors, 0);
  assert.equal(during.rejected, 0, 'a fresh label was refused while p was cut off');
  t.diagnostic(`p under traffic from the cut on, on a key of a's: accepted ${pDuring.accepted}, rejected ${pDuring.rejected}, errors ${pDuring.errors}, slowest ${pDuring.maxMs} ms`);
  assert.equal(pDuring.errors, 0);
  assert.ok(pDuring.accepted <= C / 3, `p admitted ${pDuring.accepted} on a key it could not reach: more than its share of ${C / 3}`);

  // The limit still holds among the others.
  const fellAB = await fallbacks([a, b]);
  const held = sum(await Promise.all([a, b].map((x) => burst(x, ofA, C))));
  const fellHeld = (await fallbacks([a, b])) - fellAB;
  t.diagnostic(`during the partition, a and b: ${held.accepted} of ${2 * C} admitted against ${C} (fallbacks ${fellHeld})`);
  for (const x of [a, b, p]) t.diagnostic(`${x.proc.address}: ${(await (await fetch(`${x.proc.base}/metrics`)).text()).split('\n').filter((l) => l.startsWith('sluice_distcache_fallbacks_total')).join('; ')}`);
  assert.equal(held.errors, 0);
  assert.ok(held.accepted <= C + fellHeld && held.accepted >= C - fellHeld, `a and b admitted ${held.accepted} against ${C} (fallbacks ${fellHeld})`);
  // p's keys re-home on a or b and start full there (the documented overshoot of one bucket with replica_count 1).
  const rehomed = sum(await Promise.all([a, b].map((x) => burst(x, ofP, 5))));
  assert.equal(rehomed.errors, 0);
  const rehomedAt = Date.now();

  // The partitioned agent sees itself in a minority (1 of 3): every take is decided against its share, 30 ÷ 3.
  const fellP = (await stats(p)).fallbacks;
  const cutOff = await burst(p, ofA, C);
  const ownKey = await burst(p, ofP, C);
  const fellOnP = (await stats(p)).fallbacks - fellP;
  t.diagnostic(`p cut off: admitted ${cutOff.accepted} of ${C} on a's key and ${ownKey.accepted} of ${C} on its own, share ${C / 3}; fallbacks ${fellOnP}`);
  assert.equal(cutOff.errors + ownKey.errors, 0);
  assert.equal(cutOff.accepted, C / 3, 'p admitted more (or less) than its share of a key it cannot reach');
  assert.equal(ownKey.accepted, C / 3, 'p admitted more (or less) than its share of its own key');
  assert.equal(fellOnP, 2 * C, 'every decision p took alone is a counted fallback');

  // Heal: p rejoins with the same id. Past the handover window (5 s) since either copy of p's key was started,
  // they merge by the fewer tokens alone (within it, what the younger copy gave out is taken from the other too,
  // and which copy travels depends on the order in which the rings change).
  await new Promise((r) => setTimeout(r, Math.max(0, rehomedAt + 5500 - Date.now())));
  ns.heal();
  const healStart = Date.now();
  const healed = await untilRing(agents, 3, 45_000);
  t.diagnostic(`ring of three again ${Date.now() - healStart} ms after the heal`);
  assert.deepEqual(healed, ring);
  // Let the handovers of the ring change land.
  await new Promise((r) => setTimeout(r, 1000));
  const fell0 = await fallbacks(agents);
  // a's bucket was emptied by a and b; p's admissions came from its own share, not from it: nothing left.
  const afterA = sum(await Promise.all(agents.map((x) => burst(x, ofA, 5))));
  // p's bucket: p kept 15, a and b's copy has 20; when the copies meet the one with fewer tokens wins.
  const afterP = sum(await Promise.all(agents.map((x) => burst(x, ofP, C / 2))));
  const fell = (await fallbacks(agents)) - fell0;
  t.diagnostic(`after the heal: a's key admitted ${afterA.accepted} of 15 (nothing left), p's key ${afterP.accepted} of ${1.5 * C} (${C / 2} left); fallbacks ${fell}`);
  assert.equal(afterA.errors + afterP.errors, 0);
  assert.ok(afterA.accepted <= fell, `a's emptied bucket admitted ${afterA.accepted} after the heal (fallbacks ${fell})`);
  assert.ok(afterP.accepted <= C / 2 + fell && afterP.accepted >= C / 2 - fell, `p's bucket admitted ${afterP.accepted} after the heal, ${C / 2} expected (fallbacks ${fell})`);
});

test('a namespace and veth ends left by a killed run (their pid is gone) are removed before a namespace is made', { skip: unavailable }, (t) => {
  // a pid above the kernel's maximum (4194304) belongs to no process
  const dead = 4_999_999;
  const [nsName, rootIf, nsIf] = [`sluice-e2e-${dead}`, `sl${dead}dr`, `sl${dead}dn`];
  t.after(() => {
    spawnSync('ip', ['netns', 'del', nsName]);
    spawnSync('ip', ['link', 'del', rootIf]);
  });
  assert.equal(spawnSync('ip', ['netns', 'add', nsName]).status, 0);
  assert.equal(spawnSync('ip', ['link', 'add', rootIf, 'type', 'veth', 'peer', 'name', nsIf]).status, 0);
  const ns = makeNetns(t);
  const names = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
  assert.doesNotMatch(names, new RegExp(nsName), 'the leftover namespace is still there');
  assert.match(names, new RegExp(ns.name));
  assert.notEqual(spawnSync('ip', ['link', 'show', rootIf]).status, 0, 'the leftover veth is still there');
});

test('an agent frozen by SIGSTOP (a paused process: its sockets stay open, nothing answers) is routed around without errors, and rejoins after SIGCONT: the limit holds again', async (t) => {

  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const agents = await startDistAgents(t, etcd, 3);
  await untilRing(agents, 3);
  await publishLimit(async (k, v) => { await raw.put(k).value(v); }, agents, 'default', 'p', 1_000_000);
  const [a, b, paused] = agents;
  paused.proc.child.kill('SIGSTOP');
  t.after(() => { paused.proc.child.kill('SIGCONT'); });
  // Many labels: about a third of them were owned by the paused agent.
  let n = 0;
  const flows = [a, b].map((x) => traffic(x, () => `u${n++}`, 40));
  await untilRing([a, b], 2);
  await new Promise((r) => setTimeout(r, 1000));
  const total = sum(await Promise.all(flows.map((f) => f.stop())));
  t.diagnostic(`while paused: accepted ${total.accepted}, rejected ${total.rejected}, errors ${total.errors}, slowest ${total.maxMs} ms`);
  assert.equal(total.errors, 0);
  assert.equal(total.rejected, 0, 'a flow was refused under a limit of a million');
  paused.proc.child.kill('SIGCONT');
  await untilRing(agents, 3, 30_000);
  await publishLimit(async (k, v) => { await raw.put(k).value(v); }, agents, 'default', 'p', 30);
  const fellBefore = (await Promise.all(agents.map(stats))).reduce((s, x) => s + x.fallbacks, 0);
  const healed = sum(await Promise.all(agents.map((x) => burst(x, 'after-heal', 20))));
  const fell = (await Promise.all(agents.map(stats))).reduce((s, x) => s + x.fallbacks, 0) - fellBefore;
  t.diagnostic(`after the heal: admitted ${healed.accepted} of 60 against 30, fallbacks ${fell}`);
  assert.equal(healed.errors, 0);
  assert.ok(healed.accepted >= 30 && healed.accepted <= 30 + fell, `admitted ${healed.accepted} (fallbacks ${fell})`);
});

test('two agent groups on one etcd never merge: each keeps its own ring and its own buckets', async (t) => {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const ga = await startDistAgents(t, etcd, 2, 'ga');
  const gb = await startDistAgents(t, etcd, 1, 'gb');
  // a group whose name extends another's must not see its peers either
  const gaa = await startDistAgents(t, etcd, 1, 'gaa');
  await untilRing(ga, 2);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await stats(ga[0])).ring.length, 2);
  assert.equal((await stats(ga[1])).ring.length, 2);
  for (const lone of [gb[0], gaa[0]]) {
    const s = await stats(lone);
    assert.deepEqual(s.ring, [s.id], `${lone.group} merged: ${JSON.stringify(s.ring)}`);
    const peers = await (await fetch(`${lone.proc.base}/v1/peers`)).json() as { self: { group: string }; peers: unknown[] };
    assert.equal(peers.self.group, lone.group);
    assert.deepEqual(peers.peers, []);
  }
  // the same policy in both groups: each group has its own limit of 5
  await publishLimit(async (k, v) => { await raw.put(k).value(v); }, ga, 'ga', 'p', 5);
  await publishLimit(async (k, v) => { await raw.put(k).value(v); }, gb, 'gb', 'p', 5);
  const inA = sum(await Promise.all(ga.map((x) => burst(x, 'shared', 5))));
  const inB = await burst(gb[0], 'shared', 8);
  assert.equal(inB.accepted, 5);
  assert.ok(inA.accepted >= 5, `group ga admitted ${inA.accepted}`);
});

test('an agent whose dist-cache port is taken exits 1 naming the key and its variable', async (t) => {
  const held = await holdPort(t);
  for (const [key, env] of [['bind_addr', 'SLUICE_AGENT_DIST_CACHE_BIND_ADDR'], ['memberlist_bind_addr', 'SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR']] as const) {
    const r = spawnSync(join(ROOT, 'bin', 'sluice-agent'), [], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
      // etcd is not needed to fail: nothing listens on port 1
      env: processEnv('agent', { SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:1"]', [env]: `127.0.0.1:${held.port}` }),
    });
    assert.equal(r.status, 1, `${key}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`dist_cache\\.${key} \\(${env}\\) 127\\.0\\.0\\.1:${held.port}: cannot listen: the address is in use`));
  }
});
