// The controller end to end: real etcd, real Prometheus, the real controller binary.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcdServer, type EtcdServer } from '@sluice/etcd/testing';
import { startPrometheus, startTestExporter } from './support/prometheus.js';
import { startController, until, type SluiceProcess } from './support/processes.js';

const LEASE_TTL = '2s';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** Every key under `prefix` (read through etcd's own JSON gateway, /v3/kv/range). */
async function etcdPrefix(etcd: EtcdServer, prefix: string): Promise<Map<string, string>> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const r = await fetch(`${etcd.endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end) }) });
  const body = await r.json() as { kvs?: { key: string; value: string }[] };
  return new Map((body.kvs ?? []).map((kv) => [Buffer.from(kv.key, 'base64').toString(), Buffer.from(kv.value ?? '', 'base64').toString()]));
}

async function startEtcd(t: TestContext): Promise<EtcdServer> {
  const etcd = await startEtcdServer();
  t.after(() => etcd.close());
  return etcd;
}

function controllerEnv(etcd: EtcdServer, prometheus: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SLUICE_CONTROLLER_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]),
    SLUICE_CONTROLLER_ETCD_LEASE_TTL: LEASE_TTL,
    SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: prometheus,
    ...extra,
  };
}

interface Reply { status: number; body: Record<string, unknown> }
async function call(c: SluiceProcess, method: string, path: string, body?: unknown, raw?: string): Promise<Reply> {
  const r = await fetch(`${c.base}${path}`, {
    method,
    ...(body !== undefined || raw !== undefined ? { headers: { 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, body: text === '' ? {} : JSON.parse(text) as Record<string, unknown> };
}

const limiter = (capacity: unknown, selectors: unknown[] = [{ control_point: 'ingress' }], extra: unknown[] = []): Record<string, unknown> => ({
  circuit: {
    evaluation_interval: '200ms',
    components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: capacity, fill_amount: { constant_signal: { value: 5 } } },
      parameters: { interval: '1s', label_key: 'user' },
      selectors,
    } } }, ...extra],
  },
});
const constant = (value: number): unknown => ({ constant_signal: { value } });
const variable = (signal: string, value: number): unknown => ({ variable: { constant_output: { value }, out_ports: { output: { signal_name: signal } } } });

async function decision(etcd: EtcdServer, policy: string, id = 'root.0'): Promise<Record<string, unknown> | undefined> {
  const v = (await etcdPrefix(etcd, `sluice/decisions/default/${policy}/`)).get(`sluice/decisions/default/${policy}/${id}`);
  return v === undefined ? undefined : JSON.parse(v) as Record<string, unknown>;
}

test('POST publishes config and decision keys; PATCH changes the decision; GET, list, decisions; variables; DELETE removes every key', async (t) => {
  const etcd = await startEtcd(t);
  const c = await startController(t, { env: controllerEnv(etcd, '127.0.0.1:9') });

  const created = await call(c, 'POST', '/v1/policies/rl', { policy: limiter(constant(10)) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.status, 'running');
  assert.match(String(created.body.hash), /^[0-9a-f]{64}$/);
  await until(async () => (await decision(etcd, 'rl'))?.bucket_capacity === 10, 2000, 'decision key');
  const config = JSON.parse((await etcdPrefix(etcd, 'sluice/config/default/rl/')).get('sluice/config/default/rl/root.0') ?? '{}') as Record<string, unknown>;
  assert.equal(config.kind, 'rate_limiter');
  assert.equal(config.policy_hash, created.body.hash);
  assert.ok((await etcdPrefix(etcd, 'sluice/policies/')).has('sluice/policies/rl'), 'stored policy');

  const got = await call(c, 'GET', '/v1/policies/rl');
  assert.equal(got.status, 200);
  assert.deepEqual(got.body.spec, limiter(constant(10)));
  assert.deepEqual(got.body.components, ['root.0']);
  const list = await call(c, 'GET', '/v1/policies');
  assert.deepEqual((list.body.policies as { name: string }[]).map((p) => p.name), ['rl']);
  const decisions = await call(c, 'GET', '/v1/decisions/rate_limiter');
  assert.deepEqual(decisions.body.decisions, [{
    policy_name: 'rl', component_id: 'root.0', agent_group: 'default', key: 'sluice/decisions/default/rl/root.0',
    decision: { kind: 'rate_limiter', bucket_capacity: 10, fill_amount: 5, pass_through: false },
  }]);
  assert.equal((await call(c, 'GET', '/v1/decisions/nothing')).status, 400);

  const patched = await call(c, 'PATCH', '/v1/policies/rl', { policy: { circuit: { components: (limiter(constant(3)).circuit as { components: unknown }).components } } });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  await until(async () => (await decision(etcd, 'rl'))?.bucket_capacity === 3, 2000, 'patched capacity');

  // A variable drives the capacity of a second policy.
  assert.equal((await call(c, 'POST', '/v1/policies/var', { policy: limiter({ signal_name: 'CAP' }, undefined, [variable('CAP', 4)]) })).status, 200);
  await until(async () => (await decision(etcd, 'var'))?.bucket_capacity === 4, 2000, 'variable initial');
  assert.equal((await call(c, 'POST', '/v1/policies/var/variables/CAP', { value: 12 })).status, 200);
  await until(async () => (await decision(etcd, 'var'))?.bucket_capacity === 12, 2000, 'variable set');
  assert.equal((await call(c, 'POST', '/v1/policies/var/variables/NOPE', { value: 1 })).status, 404);
  assert.equal((await call(c, 'POST', '/v1/policies/var/variables/CAP', { value: 'x' })).status, 400);
  assert.equal((await call(c, 'POST', '/v1/policies/none/variables/CAP', { value: 1 })).status, 404);

  assert.equal((await call(c, 'DELETE', '/v1/policies/rl')).status, 200);
  await until(async () => (await etcdPrefix(etcd, 'sluice/config/default/rl/')).size === 0 && (await etcdPrefix(etcd, 'sluice/decisions/default/rl/')).size === 0, 2000, 'keys deleted');
  assert.equal((await etcdPrefix(etcd, 'sluice/policies/')).has('sluice/policies/rl'), false);
  assert.equal((await call(c, 'GET', '/v1/policies/rl')).status, 404);
  assert.equal((await call(c, 'DELETE', '/v1/policies/rl')).status, 404);
  assert.equal((await call(c, 'PATCH', '/v1/policies/rl', { policy: {} })).status, 404);
  assert.equal((await decision(etcd, 'var'))?.bucket_capacity, 12, 'the other policy is untouched');
});

test('a PromQL-driven capacity follows the exporter\'s value through real Prometheus, with prometheus.labels in the query', async (t) => {
  const exporter = await startTestExporter(t, 5);
  const prom = await startPrometheus(t, [exporter.target], 'capacity-exporter');
  const etcd = await startEtcd(t);
  const c = await startController(t, {
    env: controllerEnv(etcd, prom.address, { SLUICE_CONTROLLER_PROMETHEUS_LABELS: JSON.stringify([{ name: 'job', value: 'capacity-exporter' }]) }),
  });
  const policy = limiter({ signal_name: 'CAP' }, undefined, [
    { query: { promql: { query_string: 'max(sluice_e2e_capacity)', evaluation_interval: '500ms', out_ports: { output: { signal_name: 'Q' } } } } },
    { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: { signal_name: 'Q' }, rhs: constant(2) }, out_ports: { output: { signal_name: 'CAP' } } } },
  ]);
  assert.equal((await call(c, 'POST', '/v1/policies/promql', { policy })).status, 200);
  await until(async () => (await decision(etcd, 'promql'))?.bucket_capacity === 10, 15_000, 'capacity = 2 × 5');
  exporter.set(20);
  await until(async () => (await decision(etcd, 'promql'))?.bucket_capacity === 40, 10_000, 'capacity = 2 × 20');
  const metrics = await (await fetch(`${c.base}/metrics`)).text();
  assert.match(metrics, /promql_job_duration_seconds_count\{policy_name="promql"\} [1-9]/);
  assert.match(metrics, /circuit_ticks_total\{policy_name="promql"\} [1-9]/);
  assert.match(metrics, /policies\{status="running"\} 1/);
});

function classifierPolicy(rules: unknown, rego?: unknown): unknown {
  const classifier = { selectors: [{ control_point: 'ingress' }], rules, ...(rego === undefined ? {} : { rego }) };
  return { resources: { flow_control: { classifiers: [classifier] } } };
}

test('bad policies are refused with 400 naming the field, and disturb nothing; 100 random mutations: no 5xx, no crash', async (t) => {
  const etcd = await startEtcd(t);
  const c = await startController(t, { env: controllerEnv(etcd, '127.0.0.1:9') });
  assert.equal((await call(c, 'POST', '/v1/policies/good', { policy: limiter(constant(10)) })).status, 200);
  await until(async () => (await decision(etcd, 'good'))?.bucket_capacity === 10, 2000, 'good published');
  const snapshot = async (): Promise<string> => JSON.stringify([...await etcdPrefix(etcd, 'sluice/')].filter(([k]) => !k.includes('/peers/')));
  const before = await snapshot();
  const combinator = (from: string, to: string): unknown => ({ arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: from }, rhs: constant(1) }, out_ports: { output: { signal_name: to } } } });
  const cases: [string, unknown, RegExp][] = [
    ['undefined signal', limiter({ signal_name: 'NOPE' }), /bucket_capacity\.signal_name$/],
    ['cycle', limiter({ signal_name: 'A' }, undefined, [combinator('B', 'A'), combinator('A', 'B')]), /components\[\d\]\.arithmetic_combinator/],
    ['bad selector', limiter(constant(1), [{ control_point: 'ingress', label_matcher: { match_expressions: [{ key: 'a', operator: 'Bogus' }] } }]), /match_expressions\[0\]\.operator$/],
    ['bad regex', limiter(constant(1), [{ control_point: 'ingress', label_matcher: { expression: { label_matches: { label: 'a', regex: '(' } } } }]), /label_matches\.regex$/],
    ['negative capacity', limiter(constant(-1)), /bucket_capacity\.constant_signal\.value$/],
    ['missing control point', limiter(constant(1), [{}]), /selectors\[0\]\.control_point$/],
    ['classifier attribute the agent cannot read', classifierPolicy({ user: { extractor: { from: 'request.http.user' } } }), /^spec\.resources\.flow_control\.classifiers\[0\]\.rules\.user\.extractor\.from$/],
    ['classifier pointer the agent cannot parse', classifierPolicy({ user: { extractor: { json: { from: 'request.http.body', pointer: '/a~2' } } } }), /^spec\.resources\.flow_control\.classifiers\[0\]\.rules\.user\.extractor\.json\.pointer$/],
    ['rego classifier', classifierPolicy({ user: { extractor: { from: 'request.http.method' } } }, { module: 'package x' }), /^spec\.resources\.flow_control\.classifiers\[0\]\.rego$/],
  ];
  for (const [what, policy, field] of cases) {
    for (const name of ['good', 'fresh']) {
      const r = await call(c, 'POST', `/v1/policies/${name}`, { policy });
      assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.body)}`);
      const violations = (r.body.details as { field_violations?: { field: string }[] }[])[0]?.field_violations ?? [];
      assert.ok(violations.some((v) => field.test(v.field)), `${what}: ${JSON.stringify(r.body)}`);
    }
  }
  const malformed = await call(c, 'POST', '/v1/policies/good', undefined, '{"policy": {');
  assert.equal(malformed.status, 400);
  for (const [body, status] of [['[]', 400], ['{"policy": 1}', 400], ['{"policy": {}, "x": 1}', 400], ['{}', 400]] as const) {
    assert.equal((await call(c, 'POST', '/v1/policies/good', undefined, body)).status, status, body);
  }
  assert.equal((await call(c, 'POST', '/v1/policies/Not_A_Name', { policy: limiter(constant(1)) })).status, 400);
  assert.equal((await call(c, 'POST', `/v1/policies/${'a'.repeat(254)}`, { policy: limiter(constant(1)) })).status, 400, 'longer than 253');
  assert.equal((await call(c, 'POST', '/v1/policies/a.b', { policy: limiter(constant(1)) })).status, 200, 'a DNS-1123 subdomain, as a Policy resource may be named');
  assert.equal((await call(c, 'DELETE', '/v1/policies/a.b')).status, 200);

  // Random mutations of a valid policy, posted under another name.
  let seed = 12345;
  const rand = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const junk = (): unknown => [-1, 0, 1e308, -0.5, 'x', '', null, true, [], {}, { signal_name: 'Z' }, 'not a duration', '(', { constant_signal: {} }][rand(14)];
  const paths = (v: unknown, at: (string | number)[] = []): (string | number)[][] => {
    if (typeof v !== 'object' || v === null) return [at];
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
    return [at, ...entries.flatMap(([k, x]) => paths(x, [...at, k]))];
  };
  const base = limiter({ signal_name: 'C' }, [{ control_point: 'ingress', label_matcher: { match_labels: { tier: 'gold' } } }], [
    { query: { promql: { query_string: 'sum(x)', evaluation_interval: '1s', out_ports: { output: { signal_name: 'Q' } } } } },
    { arithmetic_combinator: { operator: 'mul', in_ports: { lhs: { signal_name: 'Q' }, rhs: constant(2) }, out_ports: { output: { signal_name: 'C' } } } },
  ]);
  const statuses = new Map<number, number>();
  for (let i = 0; i < 100; i++) {
    const spec = structuredClone(base);
    const all = paths(spec).filter((p) => p.length > 0);
    const path = all[rand(all.length)];
    let parent: Record<string | number, unknown> = spec;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path[path.length - 1];
    const op = rand(3);
    if (op === 0) delete parent[last];
    else if (op === 1) parent[last] = junk();
    else if (typeof parent[last] === 'object' && parent[last] !== null && !Array.isArray(parent[last])) (parent[last] as Record<string, unknown>)[`unknown_${i}`] = junk();
    else parent[last] = junk();
    const r = await call(c, 'POST', '/v1/policies/mutant', { policy: spec });
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    assert.ok(r.status === 200 || r.status === 400, `mutation ${i} at ${path.join('.')}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  t.diagnostic(`mutations: ${JSON.stringify([...statuses])}`);
  assert.ok((statuses.get(400) ?? 0) > 0, 'some mutations were refused');
  if ((await call(c, 'GET', '/v1/policies/mutant')).status === 200) assert.equal((await call(c, 'DELETE', '/v1/policies/mutant')).status, 200);
  await until(async () => (await snapshot()) === before, 3000, 'etcd back to the good policy alone');
  assert.equal(c.child.exitCode, null, 'the controller is still running');
  assert.equal((await call(c, 'GET', '/v1/status/system/liveness')).status, 200);
});

test('a controller restart loses no policy and no decision', async (t) => {
  const etcd = await startEtcd(t);
  const env = controllerEnv(etcd, '127.0.0.1:9');
  const first = await startController(t, { env });
  for (const [name, cap] of [['one', 7], ['two', 9]] as const) {
    assert.equal((await call(first, 'POST', `/v1/policies/${name}`, { policy: limiter(constant(cap)) })).status, 200);
  }
  await until(async () => (await decision(etcd, 'two'))?.bucket_capacity === 9, 2000, 'published');
  first.child.kill('SIGTERM');
  assert.equal((await first.exited).code, 0);
  const second = await startController(t, { env });
  await until(async () => (await decision(etcd, 'one'))?.bucket_capacity === 7 && (await decision(etcd, 'two'))?.bucket_capacity === 9, 5000, 'republished by the new controller');
  const list = await call(second, 'GET', '/v1/policies');
  assert.deepEqual((list.body.policies as { name: string; status: string }[]).map((p) => [p.name, p.status]), [['one', 'running'], ['two', 'running']]);
});

test('a dynamic configuration posted to the controller is kept in etcd: after a restart the variable still reads it', async (t) => {
  const etcd = await startEtcd(t);
  const env = controllerEnv(etcd, '127.0.0.1:9');
  const first = await startController(t, { env });
  const keyed = { variable: { constant_output: { value: '4' }, config_key: 'capacity', out_ports: { output: { signal_name: 'CAP' } } } };
  assert.equal((await call(first, 'POST', '/v1/policies/dyn', { policy: limiter({ signal_name: 'CAP' }, undefined, [keyed]) })).status, 200);
  await until(async () => (await decision(etcd, 'dyn'))?.bucket_capacity === 4, 2000, 'the constant published');
  const posted = await call(first, 'POST', '/v1/dynamic-configs/dyn', { dynamic_config: { capacity: '12' } });
  assert.equal(posted.status, 200, JSON.stringify(posted.body));
  await until(async () => (await decision(etcd, 'dyn'))?.bucket_capacity === 12, 2000, 'the dynamic value published');
  first.child.kill('SIGTERM');
  assert.equal((await first.exited).code, 0);
  // The new controller reads the document back from etcd and its circuit uses it.
  const second = await startController(t, { env });
  await until(async () => (await call(second, 'GET', '/v1/dynamic-configs/dyn')).status === 200, 5000, 'the document read back');
  assert.deepEqual((await call(second, 'GET', '/v1/dynamic-configs/dyn')).body, { policy_name: 'dyn', dynamic_config: { capacity: '12' } });
  await until(async () => ((await call(second, 'GET', '/v1/policies/dyn')).body.signals as Record<string, number> | undefined)?.CAP === 12, 5000, 'the circuit reads it');
  assert.equal((await call(second, 'DELETE', '/v1/dynamic-configs/dyn')).status, 200);
  assert.equal((await etcdPrefix(etcd, 'sluice/dynamic-configs/')).size, 0);
});

test('etcd stopped for 3 × lease_ttl: the controller stays up, keeps evaluating, and republishes when etcd returns', async (t) => {
  const etcd = await startEtcd(t);
  const c = await startController(t, { env: controllerEnv(etcd, '127.0.0.1:9', { SLUICE_CONTROLLER_READINESS_SERVICE_EXECUTION_PERIOD: '500ms' }) });
  assert.equal((await call(c, 'POST', '/v1/policies/away', { policy: limiter({ signal_name: 'CAP' }, undefined, [variable('CAP', 4)]) })).status, 200);
  await until(async () => (await decision(etcd, 'away'))?.bucket_capacity === 4, 2000, 'published');
  await etcd.stop();
  const stoppedAt = Date.now();
  // Readiness names etcd's state (the etcd check reports it without taking the controller out of service).
  const etcdCheck = async (): Promise<{ details?: { state?: string } } | undefined> =>
    ((await call(c, 'GET', '/v1/status/system/readiness')).body.checks as Record<string, { details?: { state?: string } }> | undefined)?.['readiness/service/etcd'];
  await until(async () => (await etcdCheck())?.details?.state === 'unavailable', 10_000, 'readiness shows etcd away');
  // The circuit keeps running in memory: a new value while etcd is away.
  assert.equal((await call(c, 'POST', '/v1/policies/away/variables/CAP', { value: 11 })).status, 200);
  // A write that cannot be stored is refused whole (503), not half-done.
  const refused = await call(c, 'POST', '/v1/policies/while-away', { policy: limiter(constant(1)) });
  assert.equal(refused.status, 503, JSON.stringify(refused.body));
  // etcd stays away for 3 × lease_ttl (the controller's lease expires on the way).
  await new Promise((r) => setTimeout(r, Math.max(0, 3 * 2000 - (Date.now() - stoppedAt))));
  assert.equal(c.child.exitCode, null, 'still running');
  assert.equal((await call(c, 'GET', '/v1/status/system/liveness')).status, 200, 'liveness does not depend on etcd');
  assert.equal((await call(c, 'GET', '/v1/policies/away')).body.status, 'running');
  await etcd.start();
  await until(async () => (await decision(etcd, 'away'))?.bucket_capacity === 11, 15_000, 'republished after etcd returned');
  assert.ok((await etcdPrefix(etcd, 'sluice/config/default/away/')).size === 1, 'config key back');
  await until(async () => (await etcdCheck())?.details?.state === 'connected', 10_000, 'readiness shows etcd back');
  assert.equal((await call(c, 'GET', '/v1/policies/while-away')).status, 404, 'the refused policy does not exist');
});
