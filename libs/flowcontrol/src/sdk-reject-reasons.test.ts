import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { ApertureClient } from '@fluxninja/aperture-js';
import { enumNumbers } from '@sluice/proto';
import { checkAnswer, encodeCheckAnswer } from './check-response-wire.js';
import { REJECT_REASON_OF } from './decision.js';
import { Engine, Sampler, applyLocalLimiters, loadLocalLimiters, registerFlowControlServices } from './index.js';
import { startTestServer } from './test-support.js';

/** check.proto as the published JS SDK ships it (what its generated client decodes with). */
function sdkCheckProto(): protobuf.Root {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@fluxninja/aperture-js/package.json'));
  return protobuf.loadSync(path.join(dir, 'proto', 'flowcontrol', 'check', 'v1', 'check.proto'));
}

const REASON = enumNumbers<string, number>('aperture.flowcontrol.check.v1.CheckResponse.RejectReason');

test('every reject reason Sluice sends is one the published SDK defines; a sampler rejection is 3', () => {
  const sdk = sdkCheckProto().lookupEnum('aperture.flowcontrol.check.v1.CheckResponse.RejectReason');
  const defined = new Set(Object.values(sdk.values));
  for (const [kind, reason] of Object.entries(REJECT_REASON_OF)) {
    const n = REASON[reason];
    assert.ok(defined.has(n), `${kind} rejects with ${reason} = ${n}, which the SDK does not define`);
  }
  assert.equal(REASON[REJECT_REASON_OF.sampler], 3, 'a sampler rejection is REGULATED = 3');
  assert.equal(sdk.valuesById[3], 'REJECT_REASON_NOT_SAMPLED', 'the SDK names 3 as the sampler rejection');
  assert.equal(REASON[REJECT_REASON_OF.rate_limiter], sdk.values.REJECT_REASON_RATE_LIMITED);
  assert.equal(REASON[REJECT_REASON_OF.scheduler], sdk.values.REJECT_REASON_NO_TOKENS);
});

test('a sampler rejection decoded with the SDK proto reads reject_reason 3 and a limiter decision the SDK can read', () => {
  const engine = new Engine();
  engine.register(new Sampler({ identity: { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' }, decision: { accept_percentage: 0, pass_through: false } }), { control_point: 'cp' });
  const d = engine.check({ controlPoint: 'cp', labels: {}, services: [] });
  assert.ok(!(d instanceof Promise));
  const msg = sdkCheckProto().lookupType('aperture.flowcontrol.check.v1.CheckResponse').decode(Buffer.from(encodeCheckAnswer(checkAnswer(d)))) as unknown as {
    rejectReason: number; decisionType: number; limiterDecisions: { componentId: string; dropped: boolean; samplerInfo?: object }[];
  };
  assert.equal(msg.decisionType, 1);
  assert.equal(msg.rejectReason, 3);
  assert.equal(msg.limiterDecisions[0].componentId, 'root.0');
  assert.equal(msg.limiterDecisions[0].dropped, true);
  assert.ok(msg.limiterDecisions[0].samplerInfo !== undefined, 'the sampler detail is one the SDK reads');
});

test('the aperture-js SDK sees a sampler rejection as 3 and a rate limiter rejection as 1', async (t) => {
  const engine = new Engine();
  engine.register(new Sampler({ identity: { policy_name: 'p', policy_hash: 'h', component_id: 'root.0' }, decision: { accept_percentage: 0, pass_through: false } }), { control_point: 'sampled' });
  applyLocalLimiters(engine, loadLocalLimiters('- { control_point: limited, bucket_capacity: 0, fill_amount: 1, interval: 1m }\n'));
  const s = await startTestServer((server) => registerFlowControlServices(server, engine));
  t.after(() => s.server.shutdown(2000));
  const client = new ApertureClient({ address: s.grpcAddress, channelCredentials: grpc.credentials.createInsecure() });
  t.after(async () => {
    const parts = client as unknown as { fcsClient: grpc.Client; tracerProvider: { shutdown(): Promise<void> } };
    await parts.tracerProvider.shutdown().catch(() => undefined);
    parts.fcsClient.close();
  });
  const sampled = await client.startFlow('sampled', { labels: {}, grpcCallOptions: { deadline: Date.now() + 5000 } });
  assert.equal(sampled.shouldRun(), false);
  assert.equal((sampled.checkResponse() as unknown as { rejectReason: number }).rejectReason, 3);
  const limited = await client.startFlow('limited', { labels: {}, grpcCallOptions: { deadline: Date.now() + 5000 } });
  assert.equal(limited.shouldRun(), false);
  assert.equal((limited.checkResponse() as unknown as { rejectReason: number }).rejectReason, 1);
});
