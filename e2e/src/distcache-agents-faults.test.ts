// The distributed counter cache with real agents under faults: an agent
// paused (SIGSTOP, then SIGCONT) is routed around and rejoins; agent groups
// on one etcd never merge; a taken dist-cache port stops the agent with the
// key and variable named.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startEtcd } from './support/etcd.js';
import { holdPort, processEnv, ROOT } from './support/processes.js';
import { burst, publishLimit, startDistAgents, stats, sum, traffic, untilRing } from './support/dist-agents.js';

test('an agent paused by SIGSTOP is routed around without errors, and rejoins after SIGCONT: the limit holds again', async (t) => {
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
