// What the hand-written Check encoder assumes of the libraries it runs with, checked against
// the real ones, so that an upgrade of grpc-js or protobufjs that breaks an assumption fails here:
// - grpc-js copies a response's bytes as soon as responseSerialize returns them (encodeCheckAnswer
//   answers a view of one buffer that the next answer overwrites);
// - the bytes read back, through the loader's deserializer, as protobufjs's generic encoder
//   (the loader's serializer, fromObject then encode) writes the full message, for every shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { serviceClient, withResponseSerializers } from '@sluice/proto';
import { checkAnswer, encodeCheckAnswer, type CheckAnswer } from './check-response-wire.js';
import { toCheckResponse } from './check-response.js';
import type { CheckDecision, LimiterRecord } from '../check/decision.js';
import { TEST_KINDS } from '../testing/test-support.js';

const Loaded = serviceClient('flowControl');
const check = Loaded.service.Check;
const id = (i: number) => ({ policy_name: `p${i}`, policy_hash: `h${i}`, component_id: `root.${i}` });
const rate = (i: number, accepted: boolean): LimiterRecord => ({ kind: TEST_KINDS.rate_limiter, identity: id(i), result: { accepted, waitMs: accepted ? 0 : 250, tokens: 1, label: `user-${i}`, remaining: accepted ? 10 - i : 0, current: i } });

function decision(over: Partial<CheckDecision>): CheckDecision {
  return {
    controlPoint: 'cp', services: ['svc'], labels: { user: 'alice' }, addedLabels: undefined,
    startMs: 1_700_000_000_000, endMs: 1_700_000_000_001, accepted: true, rejectReason: 'REJECT_REASON_NONE', deniedStatus: 0,
    waitMs: 0, limiters: [], classifiers: [], fluxMeters: [], ...over,
  };
}

/** Every shape of limiter decision the encoder writes, alone and together, accepting and rejecting. */
const SHAPES: Record<string, CheckDecision> = {
  'no decisions': decision({}),
  'rate limiters accepting': decision({ limiters: [rate(1, true), rate(2, true), rate(3, true)] }),
  'a rate limiter rejecting with a wait': decision({ accepted: false, rejectReason: 'REJECT_REASON_RATE_LIMITED', deniedStatus: 429, waitMs: 250, limiters: [rate(1, true), rate(2, false)] }),
  'a scheduler': decision({ limiters: [{ kind: TEST_KINDS.scheduler, identity: id(4), result: { accepted: true, waitMs: 12.5, workloadIndex: '2', priority: 50, tokens: 3, remaining: 7, current: 3 } }] }),
  'a sampler rejecting': decision({ accepted: false, rejectReason: 'REJECT_REASON_REGULATED', deniedStatus: 403, limiters: [{ kind: TEST_KINDS.sampler, identity: id(5), result: { accepted: false, waitMs: 0, label: 'gold' } }] }),
  'a key not found': decision({ limiters: [{ kind: TEST_KINDS.rate_limiter, identity: id(6), result: { accepted: true, waitMs: 0, keyNotFound: true } }] }),
  'all kinds, classifiers, flux meters': decision({
    limiters: [rate(7, true), { kind: TEST_KINDS.scheduler, identity: id(8), result: { accepted: true, waitMs: 0, workloadIndex: 'default', priority: 1, tokens: 1, remaining: 0, current: 1 } }, { kind: TEST_KINDS.sampler, identity: id(9), result: { accepted: true, waitMs: 0, label: '' } }],
    classifiers: [{ policy_name: 'c', policy_hash: 'ch', classifier_index: 0, failed: false }], fluxMeters: ['fm'],
  }),
};

/** What protobufjs's generic encoder writes of the full message, read back. */
const oracle = (d: CheckDecision): unknown => check.responseDeserialize(check.responseSerialize(toCheckResponse(d, false)));

for (const [name, d] of Object.entries(SHAPES)) {
  test(`the Check encoder writes what protobufjs's generic encoder writes: ${name}`, () => {
    assert.deepEqual(check.responseDeserialize(Buffer.from(encodeCheckAnswer(checkAnswer(d)))), oracle(d));
  });
}

test('grpc-js copies an answer when responseSerialize returns it: the next answer encoded at once does not change what is sent', async (t) => {
  const names = Object.keys(SHAPES);
  const server = new grpc.Server();
  // Each call answers its shape, and right after grpc-js took the bytes the encoder writes another answer over its buffer.
  server.addService(withResponseSerializers(Loaded.service, { Check: encodeCheckAnswer }), {
    Check: (call: grpc.ServerUnaryCall<{ control_point: string }, CheckAnswer>, callback: grpc.sendUnaryData<CheckAnswer>) => {
      const i = names.indexOf(call.request.control_point);
      callback(null, checkAnswer(SHAPES[names[i]]));
      encodeCheckAnswer(checkAnswer(SHAPES[names[(i + 1) % names.length]]));
      encodeCheckAnswer(checkAnswer(decision({ limiters: Array.from({ length: 40 }, (_, k) => rate(k, k % 2 === 0)) })));
    },
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  t.after(() => server.forceShutdown());
  const client = new Loaded(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as grpc.Client & { Check(req: object, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: unknown) => void): void };
  t.after(() => client.close());
  const ask = (name: string) => new Promise<unknown>((resolve, reject) => client.Check({ control_point: name }, { deadline: Date.now() + 10_000 }, (err, res) => (err ? reject(err) : resolve(res))));
  for (let round = 0; round < 2; round++) {
    const answers = await Promise.all(names.map(ask));
    names.forEach((name, i) => assert.deepEqual(answers[i], oracle(SHAPES[name]), `${name}, round ${round}`));
  }
});
