// A rogue process against real agents whose dist cache is authenticated (dist_cache.auth.keys):
// it floods the counter port, gives tokens back and takes from others' buckets, joins the group
// (with and without the key, never listed by etcd), spoofs a `left` at the top of the incarnations,
// and hands back a dead member. Every attempt fails: the agents live, the limits hold, the ring
// stays theirs. Also: an agent with a port beyond loopback and no key does not start.
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startEtcd, type EtcdServer } from './support/etcd.js';
import { ROOT, cleanEnv, spawnProc, startSluice, until } from './support/processes.js';
import { GROUP_KEY, burst, ownerOf, publishLimit, startDistAgent, stats, untilRing, type DistAgent, type DistStats } from './support/dist-agents.js';
import type { RoguePlan } from './support/rogue-member.js';

const ROGUE = join(ROOT, 'e2e', 'dist', 'support', 'rogue-member.js');
const KEYED = { SLUICE_AGENT_DIST_CACHE_AUTH_KEYS: GROUP_KEY, SLUICE_AGENT_DIST_CACHE_IDLE_TIMEOUT: '1s', SLUICE_AGENT_DIST_CACHE_MAX_CONNECTIONS: '64' };

async function rogue(t: TestContext, plan: Omit<RoguePlan, 'group'>): Promise<Record<string, number>> {
  const p = spawnProc(t, process.execPath, [ROGUE, JSON.stringify({ group: 'default', ...plan })], cleanEnv());
  const line = await p.waitForLine(/"attack"/, plan.durationMs + 30_000);
  t.diagnostic(`rogue ${line.trim()}`);
  return JSON.parse(line) as Record<string, number>;
}

interface Group { agents: DistAgent[]; ring: string[]; st: DistStats[]; put: (k: string, v: string) => Promise<void> }

async function keyedGroup(t: TestContext, etcd: EtcdServer): Promise<Group> {
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const agents = [await startDistAgent(t, etcd, 'default', KEYED), await startDistAgent(t, etcd, 'default', KEYED)];
  const ring = await untilRing(agents, 2);
  const put = async (k: string, v: string): Promise<void> => { await raw.put(k).value(v); };
  await publishLimit(put, agents, 'default', 'p', 5);
  return { agents, ring, st: await Promise.all(agents.map(stats)), put };
}

const selfOf = (s: DistStats) => s.members.find((m) => m.state === 'self') as unknown as { id: string; bind_addr: string; memberlist_addr: string };

async function metric(a: DistAgent, re: RegExp): Promise<number> {
  const text = await (await fetch(`${a.proc.base}/metrics`)).text();
  return text.split('\n').filter((l) => re.test(l)).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

function alive(agents: DistAgent[]): void {
  for (const a of agents) assert.equal(a.proc.child.exitCode, null, `agent ${a.proc.address} exited:\n${a.proc.output().slice(-2000)}`);
}

test('an outsider can neither crash the agents, set their limits nor hold their connections', async (t) => {
  const etcd = await startEtcd(t);
  const { agents, ring, st } = await keyedGroup(t, etcd);
  const ops = st.map((s) => selfOf(s).bind_addr);

  // 1: a flood of new keys on the counter port
  const f = await rogue(t, { attack: 'flood', ops, gossip: [], durationMs: 3000 });
  assert.equal(f.answered, 0, 'the agents served an unsigned take');
  alive(agents);
  const after = await Promise.all(agents.map(stats));
  for (const s of after) assert.ok((s as unknown as { buckets: number }).buckets < 100, `buckets ${JSON.stringify(s)}`);

  // 2: tokens given back to, and taken from, a bucket of the limit of 5 while its user sends 20 flows
  const owner = ownerOf(ring, 'p', 'root.0', 'mallory');
  assert.ok(owner !== undefined);
  const giving = rogue(t, { attack: 'give', ops, gossip: [], bucket: 'p/root.0|mallory', durationMs: 3000 });
  const taking = rogue(t, { attack: 'take', ops, gossip: [], bucket: 'p/root.0|alice', durationMs: 3000 });
  let admitted = 0;
  for (let i = 0; i < 20; i++) admitted += (await burst(agents[i % 2], 'mallory', 1, 1)).accepted;
  const [g, tk] = await Promise.all([giving, taking]);
  assert.equal(g.ok, 0, 'a give was served');
  assert.equal(tk.ok, 0, 'a take was served');
  const fell = (await Promise.all(agents.map(stats))).reduce((s, x) => s + x.fallbacks, 0);
  assert.ok(admitted <= 5 + fell, `admitted ${admitted} of 20 against 5 (fallbacks ${fell})`);
  assert.equal((await burst(agents[0], 'alice', 5, 1)).accepted, 5, 'alice\'s bucket was drained by the rogue');
  assert.ok(await metric(agents[0], /^sluice_distcache_auth_failures_total\{.*channel="ops"/) + await metric(agents[1], /^sluice_distcache_auth_failures_total\{.*channel="ops"/) > 0);

  // 6: idle connections are closed, and past max_connections refused; a truncated frame is closed
  const { host, port } = { host: '127.0.0.1', port: Number(ops[0].slice(ops[0].lastIndexOf(':') + 1)) };
  const socks = await Promise.all(Array.from({ length: 100 }, () => new Promise<net.Socket>((resolve) => {
    const s = net.connect({ host, port }, () => resolve(s));
    s.on('error', () => s.destroy());
  })));
  t.after(() => socks.forEach((s) => s.destroy()));
  socks[0].write(Buffer.from([0, 0, 0, 200, 1, 2, 3])); // a hello begun, never finished
  await until(() => socks.every((s) => s.destroyed || s.readableEnded), 15_000, 'every idle, truncated or extra connection closed');
  assert.ok(await metric(agents[0], /^sluice_distcache_refused_connections_total\{reason="limit"/) > 0);
  assert.ok(await metric(agents[0], /^sluice_distcache_refused_connections_total\{reason="(idle|truncated)"/) > 0);
  alive(agents);
  assert.equal((await burst(agents[1], 'bob', 7, 1)).accepted, 5, 'the limit holds after the attacks');
});

test('a rogue cannot join the ring, split the group or bring a dead member back', async (t) => {
  const etcd = await startEtcd(t);
  const { agents, st } = await keyedGroup(t, etcd);
  const ops = st.map((s) => selfOf(s).bind_addr);
  const gossip = st.map((s) => selfOf(s).memberlist_addr);
  const victim = selfOf(st[1]);

  // 3: join without the key, then with it (a key holder that etcd does not list)
  await rogue(t, { attack: 'join', ops, gossip, durationMs: 3000 });
  const j = await rogue(t, { attack: 'join', ops, gossip, durationMs: 3000, key: GROUP_KEY });
  // 4: a `left` of agent 1 at the top of the incarnations, unsigned and signed
  await rogue(t, { attack: 'spoof-left', ops, gossip, victim: { id: victim.id, gossipAddr: victim.memberlist_addr, opsAddr: victim.bind_addr }, durationMs: 1500 });
  await rogue(t, { attack: 'spoof-left', ops, gossip, victim: { id: victim.id, gossipAddr: victim.memberlist_addr, opsAddr: victim.bind_addr }, durationMs: 1500, key: GROUP_KEY });
  // 5: a dead member handed back by a sync
  await rogue(t, { attack: 'resurrect', ops, gossip, victim: { id: 'gone', gossipAddr: '127.0.0.1:9', opsAddr: '127.0.0.1:9' }, durationMs: 1500, key: GROUP_KEY });
  assert.equal(j.served, 0, 'an agent sent an operation to the rogue');

  await new Promise((r) => setTimeout(r, 3000));
  const now = await Promise.all(agents.map(stats));
  for (const s of now) {
    const ids = s.members.map((m) => m.id);
    assert.ok(!ids.some((id) => id.startsWith('rogue-') || id.startsWith('ghost-') || id === 'gone'), `${s.id} lists ${ids.join(', ')}`);
    assert.equal(s.ring.length, 2, `${s.id} ring ${s.ring.join(', ')}`);
    assert.equal((s as unknown as { minority: boolean }).minority, false);
  }
  assert.equal(now[0].members.find((m) => m.id === victim.id)?.state, 'alive', 'the spoofed agent is not alive to the other');
  assert.ok(now.some((s) => s.dropped_packets > 0), 'no packet was dropped');
  // the group still decides as one: 8 flows against a limit of 5
  let admitted = 0;
  for (let i = 0; i < 8; i++) admitted += (await burst(agents[i % 2], 'eve', 1, 1)).accepted;
  const fell = (await Promise.all(agents.map(stats))).reduce((s, x) => s + x.fallbacks, 0);
  assert.ok(admitted <= 5 + fell && admitted >= 5, `admitted ${admitted} of 8 against 5 (fallbacks ${fell})`);
  alive(agents);
});

test('an agent with a dist-cache port beyond loopback and no key does not start, and says which keys to set', async (t) => {
  const p = spawnProc(t, join(ROOT, 'bin', 'sluice-agent'), [], cleanEnv({
    SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:1"]', SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '0.0.0.0:0', SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
  }));
  const exit = await p.exited;
  assert.equal(exit.code, 2, p.output());
  assert.match(p.output(), /dist_cache\.bind_addr \(SLUICE_AGENT_DIST_CACHE_BIND_ADDR\) 0\.0\.0\.0:0 not on loopback and no key: set dist_cache\.auth\.key_file \(SLUICE_AGENT_DIST_CACHE_AUTH_KEY_FILE\)/);
  // the explicit opt-out starts
  const insecure = await startSluice(t, 'agent', { ready: false, env: { SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '0.0.0.0:0', SLUICE_AGENT_DIST_CACHE_AUTH_INSECURE: 'true', SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:1"]' } });
  assert.match(insecure.output(), /dist cache runs without keys/);
});
