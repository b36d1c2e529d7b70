import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { ApertureClient } from '@fluxninja/aperture-js';
import { enumNumbers } from '@sluice/proto';
import { checkAnswer, encodeCheckAnswer } from './check-response-wire.js';
import { Engine } from '../check/engine.js';
import { Sampler } from '../limiters/sampler.js';
import { applyLocalLimiters } from '../local-limiters/apply-local-limiters.js';
import { loadLocalLimiters } from '../local-limiters/local-limiters-config.js';
import { registerFlowControlServices } from '../services/register-services.js';
import { startTestServer, TEST_KINDS } from '../testing/test-support.js';

/** The reject reason of each limiter kind, as the kinds say. */
const REJECT_REASON_OF = {
  sampler: TEST_KINDS.sampler.rejectReason, rate_limiter: TEST_KINDS.rate_limiter.rejectReason, scheduler: TEST_KINDS.scheduler.rejectReason,
};
import type { CheckDecision, LimiterRecord } from '../check/decision.js';

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
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
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

/** Every enum value in a decoded message (recursively) that its enum does not define, as `path = n`. */
function undefinedEnumValues(type: protobuf.Type, msg: Record<string, unknown>, at = ''): string[] {
  const out: string[] = [];
  for (const field of type.fieldsArray) {
    const v = msg[field.name];
    if (v === undefined || v === null) continue;
    const items = Array.isArray(v) ? v : [v];
    const t = field.resolve().resolvedType;
    for (const item of items) {
      if (t instanceof protobuf.Enum && t.valuesById[item as number] === undefined) out.push(`${at}${field.name} = ${String(item)}`);
      if (t instanceof protobuf.Type) out.push(...undefinedEnumValues(t, item as Record<string, unknown>, `${at}${field.name}.`));
    }
  }
  return out;
}

test('decoded with the published SDK\'s check.proto, every reject reason, decision type, classifier error and limiter reason Sluice sends is defined there', () => {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@fluxninja/aperture-js/package.json'));
  const proto = path.join(dir, 'proto', 'flowcontrol', 'check', 'v1', 'check.proto');
  const type = new protobuf.Root().loadSync(proto, { keepCase: true }).lookupType('aperture.flowcontrol.check.v1.CheckResponse');
  const id = (n: number) => ({ policy_name: 'p', policy_hash: 'h', component_id: `root.${n}` });
  const limiters: LimiterRecord[] = [
    { kind: TEST_KINDS.sampler, identity: id(0), result: { accepted: false, waitMs: 0, label: 'u' } },
    { kind: TEST_KINDS.rate_limiter, identity: id(1), result: { accepted: false, waitMs: 1500, tokens: 1, label: 'u', remaining: 0, current: 0 } },
    { kind: TEST_KINDS.rate_limiter, identity: id(2), result: { accepted: true, waitMs: 0, label: '', keyNotFound: true } },
    { kind: TEST_KINDS.scheduler, identity: id(3), result: { accepted: false, waitMs: 0, tokens: 1, label: 'w' } },
  ] as LimiterRecord[];
  const base: CheckDecision = {
    controlPoint: 'cp', services: ['s'], labels: { u: '1' }, addedLabels: undefined, startMs: 1_700_000_000_000, endMs: 1_700_000_000_001,
    accepted: false, rejectReason: 'REJECT_REASON_NONE', deniedStatus: 0, waitMs: 0, limiters, fluxMeters: ['fm'],
    classifiers: [{ policy_name: 'p', policy_hash: 'h', classifier_index: 0, failed: true }],
  } as unknown as CheckDecision;
  const seen = new Set<string>();
  for (const [kind, reason] of Object.entries(REJECT_REASON_OF)) {
    const d = { ...base, rejectReason: reason, deniedStatus: TEST_KINDS[kind as keyof typeof TEST_KINDS].deniedStatus } as CheckDecision;
    const msg = type.decode(Buffer.from(encodeCheckAnswer(checkAnswer(d)))) as unknown as Record<string, unknown>;
    assert.deepEqual(undefinedEnumValues(type, msg), [], `${kind}: values 2.8 does not define`);
    seen.add(String(msg.reject_reason));
  }
  assert.deepEqual([...seen].sort(), ['1', '2', '3'], 'RATE_LIMITED, NO_TOKENS, REGULATED as 2.8 numbers them');
  // Aperture 2.8 names 3 REJECT_REASON_REGULATED; the published JS SDK names the same number NOT_SAMPLED.
  assert.ok(type.lookupEnum('CheckResponse.RejectReason').valuesById[REASON[REJECT_REASON_OF.sampler]] !== undefined);
  assert.equal(REASON[REJECT_REASON_OF.sampler], 3);
});
