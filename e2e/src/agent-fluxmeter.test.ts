// Flux meters, samplers and classifiers published in a real etcd (the keys
// written here the way the controller publishes them, libs/policies
// published.ts) and enforced by a real agent: the published Aperture SDK's
// flows are measured through the OTLP spans it exports to the agent, CheckHTTP
// flows through FlowEnd, and classifier labels feed a sampler.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { ApertureClient } from '@fluxninja/aperture-js';
import { Etcd3 } from 'etcd3';
import { checkHttpRequest, grpcClient, unaryCall } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, until, type SluiceProcess } from './support/processes.js';

const cfgKey = (policy: string, id: string) => `sluice/config/default/${policy}/${id}`;
const decKey = (policy: string, id: string) => `sluice/decisions/default/${policy}/${id}`;
const base = (policy: string, id: string, cp: string) => ({
  policy_name: policy, policy_hash: 'h1', component_id: id, agent_group: 'default', selectors: [{ control_point: cp, agent_group: 'default' }],
});

async function setup(t: TestContext): Promise<{ agent: SluiceProcess; raw: Etcd3 }> {
  const etcd = await startEtcd(t);
  const raw = new Etcd3({ hosts: [etcd.endpoint] });
  t.after(() => raw.close());
  const agent = await startAgent(t, { env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd) } });
  return { agent, raw };
}

async function enforcedIds(agent: SluiceProcess): Promise<string[]> {
  const r = await fetch(`${agent.base}/v1/policies/enforced`);
  const body = await r.json() as { components: { component_id: string }[] };
  return body.components.map((c) => c.component_id);
}

async function fluxMeterCount(agent: SluiceProcess, name: string): Promise<number> {
  const text = await (await fetch(`${agent.base}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(new RegExp(`^flux_meter_count\\{flux_meter_name="${name}",[^}]*\\} (\\d+)$`, 'gm'))) n += Number(m[1]);
  return n;
}

test('a published flux meter measures the Aperture SDK\'s flows (OTLP export answered) and CheckHTTP flows ended with FlowEnd', async (t) => {
  const { agent, raw } = await setup(t);
  await raw.put(cfgKey('shop', 'flux_meter.checkout-latency')).value(JSON.stringify({
    kind: 'flux_meter', ...base('shop', 'flux_meter.checkout-latency', 'checkout'), name: 'checkout-latency', attribute_key: 'workload_duration_ms', buckets: [10, 100, 1000],
  }));
  await until(async () => (await enforcedIds(agent)).includes('flux_meter.checkout-latency'), 5000, 'flux meter enforced');

  const client = new ApertureClient({ address: agent.address, channelCredentials: grpc.credentials.createInsecure() });
  const parts = client as unknown as { fcsClient: grpc.Client; tracerProvider: { forceFlush(): Promise<void>; shutdown(): Promise<void> } };
  t.after(async () => {
    await parts.tracerProvider.shutdown().catch(() => undefined);
    parts.fcsClient.close();
  });
  for (let i = 0; i < 3; i++) {
    const flow = await client.startFlow('checkout', { labels: { user: `u${i}` }, grpcCallOptions: { deadline: Date.now() + 5000 }, rampMode: false });
    assert.equal(flow.shouldRun(), true);
    const cr = flow.checkResponse() as unknown as { fluxMeterInfos: { fluxMeterName: string }[] };
    assert.deepEqual(cr.fluxMeterInfos, [{ fluxMeterName: 'checkout-latency' }]);
    flow.end();
  }
  // Rejects when the agent does not answer the export with success.
  await parts.tracerProvider.forceFlush();
  assert.equal(await fluxMeterCount(agent, 'checkout-latency'), 3);

  const http = grpcClient(t, 'flowControlHttp', agent.address);
  const fcs = grpcClient(t, 'flowControl', agent.address);
  const r = await unaryCall<{ flow_id: string; check_response: { expect_end: boolean } }>(http, 'CheckHTTP', checkHttpRequest('checkout', '/pay'));
  assert.equal(r.check_response.expect_end, true);
  assert.notEqual(r.flow_id, '');
  await unaryCall(fcs, 'FlowEnd', { control_point: 'checkout', flow_id: r.flow_id, status_code: 200 });
  assert.equal(await fluxMeterCount(agent, 'checkout-latency'), 4);
  const text = await (await fetch(`${agent.base}/metrics`)).text();
  assert.match(text, /flux_meter_bucket\{flux_meter_name="checkout-latency",policy_name="shop",decision_type="DECISION_TYPE_ACCEPTED",response_status="200",http_status_code="200",flow_status="OK",le="1000"\} 1/);
});

test('classifier labels from the request body feed a published sampler: pass-through values accepted, 0% rejects with 403, 50% within bounds; a telemetry: false label stays out of the baggage', async (t) => {
  const { agent, raw } = await setup(t);
  await raw.put(cfgKey('tiers', 'classifier.0')).value(JSON.stringify({
    kind: 'classifier', ...base('tiers', 'classifier.0', 'ingress'), classifier_index: 0,
    rules: {
      tier: { extractor: { json: { from: 'request.http.body', pointer: '/user/tier' } } },
      account: { extractor: { from: 'request.http.headers.x-account' }, telemetry: false },
    },
  }));
  await raw.put(decKey('tiers', 'root.0')).value(JSON.stringify({ kind: 'sampler', accept_percentage: 0, pass_through: false }));
  await raw.put(cfgKey('tiers', 'root.0')).value(JSON.stringify({
    kind: 'sampler', ...base('tiers', 'root.0', 'ingress'), parameters: { label_key: 'tier' }, pass_through_label_values: ['gold'],
  }));
  const http = grpcClient(t, 'flowControlHttp', agent.address);
  type Answer = {
    denied_response?: { status: number } | null;
    ok_response?: { headers: { key: string; value: string }[] } | null;
    check_response: { decision_type: string };
  };
  const check = (tier: string, headers: Record<string, string> = {}) => unaryCall<Answer>(
    http, 'CheckHTTP', checkHttpRequest('ingress', '/buy', { 'content-type': 'application/json', ...headers }, 'POST', JSON.stringify({ user: { tier } })));
  await until(async () => (await check('free')).check_response.decision_type === 'DECISION_TYPE_REJECTED', 5000, 'sampler enforced');
  assert.equal((await check('free')).denied_response?.status, 403);
  const gold = await check('gold', { 'x-account': 'acct-7', baggage: 'session=s1' });
  assert.equal(gold.check_response.decision_type, 'DECISION_TYPE_ACCEPTED');
  assert.deepEqual(gold.ok_response?.headers, [{ key: 'baggage', value: 'session=s1,tier=gold' }], 'the telemetry: false label is not in the baggage');

  // 50% with the label: sticky per value, about half of many values
  await raw.put(decKey('tiers', 'root.0')).value(JSON.stringify({ kind: 'sampler', accept_percentage: 50, pass_through: false }));
  await until(async () => {
    let ok = 0;
    for (let i = 0; i < 40; i++) if ((await check(`v${i}`)).check_response.decision_type === 'DECISION_TYPE_ACCEPTED') ok++;
    return ok > 0 && ok < 40;
  }, 5000, 'decision applied');
  let accepted = 0;
  const n = 1000;
  for (let i = 0; i < n; i++) {
    const first = (await check(`value-${i}`)).check_response.decision_type;
    if (first === 'DECISION_TYPE_ACCEPTED') accepted++;
    if (i < 20) assert.equal((await check(`value-${i}`)).check_response.decision_type, first, 'sticky per value');
  }
  // binomial(1000, 0.5): sd ≈ 15.8; ±80 is five standard deviations
  assert.ok(Math.abs(accepted - n / 2) <= 80, `accepted ${accepted} of ${n} values`);
});
