// Policies in the form Aperture's generator writes them (libs/policies/test-fixtures/aperture-form:
// int64s as strings, a top-level dynamicConfig, flux meters named with "/", nested alerters, infra
// meters), applied with kubectl against the test API server and the real CRD, run by the real
// controller (its CR watcher, real etcd) and enforced by a real agent.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startEtcdServer } from '@sluice/etcd/testing';
import { parse } from 'yaml';
import { startTestKubeApi } from './kube-api/index.js';
import { checkHttpRequest, grpcClient, unaryCall, type GrpcClient } from './support/clients.js';
import { ROOT, startAgent, startController, until, type SluiceProcess } from './support/processes.js';

const DIR = join(ROOT, 'libs', 'policies', 'test-fixtures', 'aperture-form');
const FILES = ['rate-limiting.yaml', 'service-protection.yaml', 'workload-prioritization.yaml', 'alerting.yaml'];
const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function etcdKeys(endpoint: string, prefix: string): Promise<Map<string, string>> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const r = await fetch(`${endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end) }) });
  const body = await r.json() as { kvs?: { key: string; value: string }[] };
  return new Map((body.kvs ?? []).map((kv) => [Buffer.from(kv.key, 'base64').toString(), Buffer.from(kv.value ?? '', 'base64').toString()]));
}

async function call(c: SluiceProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${c.base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const text = await r.text();
  return { status: r.status, body: text === '' ? {} : JSON.parse(text) as Record<string, unknown> };
}

async function decision(check: GrpcClient, cp: string, labels: Record<string, string>): Promise<string> {
  return (await unaryCall<{ decision_type: string }>(check, 'Check', { control_point: cp, labels })).decision_type;
}

async function admitted(check: GrpcClient, cp: string, user: string, n: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i++) if (await decision(check, cp, { user }) === 'DECISION_TYPE_ACCEPTED') ok++;
  return ok;
}

async function enforcedIds(agent: SluiceProcess): Promise<string[]> {
  const body = await (await fetch(`${agent.base}/v1/policies/enforced`)).json() as { components: { component_id: string }[] };
  return body.components.map((c) => c.component_id);
}

test('Aperture-form policies: kubectl apply, the controller runs them with their dynamicConfig, the agent enforces them; the API changes the dynamic config', async (t) => {
  const api = await startTestKubeApi(t);
  const kubectl = api.kubectlOk;
  await kubectl(['apply', '-f', join(ROOT, 'crds', 'policies.sluice.dev.yaml')]);
  await kubectl(['wait', '--for=condition=established', '--timeout=10s', 'crd/policies.sluice.dev']);
  const etcd = await startEtcdServer();
  t.after(() => etcd.close());
  const env = {
    SLUICE_CONTROLLER_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]),
    SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9',
    SLUICE_CONTROLLER_POLICIES_CR_WATCHER_ENABLED: 'true',
    KUBECONFIG: api.kubeconfig,
  };
  const controller = await startController(t, { env });
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]) } });
  const check = grpcClient(t, 'flowControl', agent.address);

  // The CRD takes the files as written: the int64 strings and the dynamicConfig are kept.
  for (const f of FILES) await kubectl(['apply', '-f', join(DIR, f)]);
  const stored = JSON.parse(await kubectl(['get', 'policies', '-n', 'default', 'aperture-form-service-protection', '-o', 'json'])) as { spec: { resources: { flow_control: { flux_meters: Record<string, { exponential_buckets_range: { count: unknown } }> } } }; dynamicConfig: unknown };
  assert.equal(stored.spec.resources.flow_control.flux_meters['service-protection/average_latency/0'].exponential_buckets_range.count, '10');
  assert.deepEqual(stored.dynamicConfig, { dry_run: false });
  // A fractional int64 is refused by the API server itself (x-kubernetes-int-or-string).
  const bad = await api.kubectl(['apply', '-f', '-'], readFileSync(join(DIR, 'service-protection.yaml'), 'utf8').replace('count: "10"', 'count: 1.5').replace('name: aperture-form-service-protection', 'name: fractional'));
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /count/);

  for (const f of FILES) {
    const name = (parse(readFileSync(join(DIR, f), 'utf8')) as { metadata: { name: string } }).metadata.name;
    await until(async () => (await kubectl(['get', 'policies', '-n', 'default', name, '-o', 'jsonpath={.status.status}'])) === 'uploaded', 20_000, `${name} uploaded`);
    const view = await call(controller, 'GET', `/v1/policies/${name}`);
    assert.deepEqual([view.body.status, view.body.source], ['running', 'kubernetes'], name);
  }

  // Rate limiting: the dynamicConfig's "3" is the capacity, for each user.
  const rlCp = 'aperture-form-rate-limiting';
  let probe = 0;
  await until(async () => (await admitted(check, rlCp, `probe-${probe++}`, 4)) === 3, 10_000, 'capacity 3 from the dynamicConfig');
  assert.equal(await admitted(check, rlCp, 'alice', 5), 3);
  // The flux meter named with "/" is enforced under its escaped id and its metric carries the name.
  const meterId = 'flux_meter.rate-limiting%2Fworkload_latency%2F0';
  await until(async () => (await enforcedIds(agent)).includes(meterId), 10_000, 'flux meter enforced');
  const http = grpcClient(t, 'flowControlHttp', agent.address);
  const r = await unaryCall<{ flow_id: string }>(http, 'CheckHTTP', checkHttpRequest(rlCp, '/'));
  await unaryCall(check, 'FlowEnd', { control_point: rlCp, flow_id: r.flow_id, status_code: 200 });
  const metrics = await (await fetch(`${agent.base}/metrics`)).text();
  assert.match(metrics, /flux_meter_count\{flux_meter_name="rate-limiting\/workload_latency\/0",policy_name="aperture-form-rate-limiting",[^}]*\} 1/);
  const config = await etcdKeys(etcd.endpoint, 'sluice/config/default/aperture-form-rate-limiting/');
  assert.ok(config.has(`sluice/config/default/aperture-form-rate-limiting/${meterId}`), [...config.keys()].join(', '));

  // The API's dynamic config over the resource's: capacity 5, at once, without publishing the policy again.
  const limiterKey = 'sluice/config/default/aperture-form-rate-limiting/root.1';
  const limiterBefore = config.get(limiterKey);
  const posted = await call(controller, 'POST', '/v1/dynamic-configs/aperture-form-rate-limiting', { dynamic_config: { bucket_capacity: '5' } });
  assert.equal(posted.status, 200, JSON.stringify(posted.body));
  assert.deepEqual(posted.body, { policy_name: 'aperture-form-rate-limiting', dynamic_config: { bucket_capacity: '5' } });
  await until(async () => (await admitted(check, rlCp, `probe-${probe++}`, 6)) === 5, 10_000, 'capacity 5 from the API');
  assert.equal((await etcdKeys(etcd.endpoint, limiterKey)).get(limiterKey), limiterBefore, 'the limiter is not published again');
  const refused = await call(controller, 'POST', '/v1/dynamic-configs/aperture-form-rate-limiting', { dynamic_config: { bucket_capacty: 5 } });
  assert.equal(refused.status, 400);
  assert.match(String(refused.body.message), /dynamic_config\.bucket_capacty: unknown key/);
  assert.equal((await call(controller, 'POST', '/v1/dynamic-configs/aperture-form-rate-limiting', { dynamic_config: { bucket_capacity: true } })).status, 400);
  assert.equal((await call(controller, 'POST', '/v1/dynamic-configs/nope', { dynamic_config: {} })).status, 404);
  assert.equal((await call(controller, 'GET', '/v1/dynamic-configs/aperture-form-rate-limiting')).body.dynamic_config !== undefined, true);

  // Alerting: the sampler accepts 0% but the dynamicConfig's pass-through tier.
  const alCp = 'aperture-form-alerting';
  await until(async () => await decision(check, alCp, { tier: 'free' }) === 'DECISION_TYPE_REJECTED', 10_000, 'sampler at 0%');
  assert.equal(await decision(check, alCp, { tier: 'gold' }), 'DECISION_TYPE_ACCEPTED');

  // Workload prioritisation and service protection: enforced; the dry run flips through the API
  // (only the scheduler's configuration is written again, under the same policy version).
  const ids = await enforcedIds(agent);
  for (const id of ['root.1', 'classifier.0', 'flux_meter.workload-prioritization%2Flatency%2F0', 'root.3', 'flux_meter.service-protection%2Faverage_latency%2F0']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  const wpKey = 'sluice/decisions/default/aperture-form-workload-prioritization/root.1';
  await until(async () => (await etcdKeys(etcd.endpoint, wpKey)).get(wpKey)?.includes('"load_multiplier":0.5') === true, 10_000, 'load multiplier 0.5 from the dynamicConfig');
  const schedKey = 'sluice/config/default/aperture-form-workload-prioritization/root.1';
  const before = JSON.parse((await etcdKeys(etcd.endpoint, schedKey)).get(schedKey)!) as { policy_hash: string; parameters: { dry_run: boolean } };
  assert.equal(before.parameters.dry_run, false);
  const flip = await call(controller, 'POST', '/v1/dynamic-configs/aperture-form-workload-prioritization', { dynamic_config: { scheduler: { dry_run: true } } });
  assert.equal(flip.status, 200, JSON.stringify(flip.body));
  await until(async () => (JSON.parse((await etcdKeys(etcd.endpoint, schedKey)).get(schedKey)!) as { parameters: { dry_run: boolean } }).parameters.dry_run, 10_000, 'dry run published');
  assert.equal((JSON.parse((await etcdKeys(etcd.endpoint, schedKey)).get(schedKey)!) as { policy_hash: string }).policy_hash, before.policy_hash);
  assert.ok((await etcdKeys(etcd.endpoint, 'sluice/dynamic-configs/')).has('sluice/dynamic-configs/aperture-form-workload-prioritization'));
});
