import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceClient } from './load.js';
import { messageType } from './reflection.js';
import { enumNumbers, wireSerializer, withResponseSerializers } from './wire-encoding.js';
import protobuf from 'protobufjs';
import { elementTag, embeddedFieldWriter, fieldTag, varintLength, writeVarint } from './pre-encoded.js';

const CHECK_RESPONSE = 'aperture.flowcontrol.check.v1.CheckResponse';

test('enumNumbers reads the numbers from the .proto', () => {
  const status = enumNumbers<'Empty' | 'TooManyRequests'>('aperture.flowcontrol.check.v1.StatusCode');
  assert.equal(status.Empty, 0);
  assert.equal(status.TooManyRequests, 429);
  const reason = enumNumbers(`${CHECK_RESPONSE}.RejectReason`);
  assert.equal(reason.REJECT_REASON_RATE_LIMITED, 1);
  assert.ok(Object.isFrozen(reason));
  assert.throws(() => enumNumbers('aperture.flowcontrol.check.v1.NoSuchEnum'));
});

test('wireSerializer writes what the loader serializer writes of the same message, read back the same', () => {
  const def = serviceClient('flowControl').service.Check;
  const reason = enumNumbers(`${CHECK_RESPONSE}.RejectReason`);
  const status = enumNumbers('aperture.flowcontrol.check.v1.StatusCode');
  const wire = {
    start: { seconds: 1_700_000_000, nanos: 5_000 },
    control_point: 'cp',
    flow_label_keys: ['user'],
    decision_type: 1,
    reject_reason: reason.REJECT_REASON_RATE_LIMITED,
    limiter_decisions: [{
      policy_name: 'p', component_id: 'c', dropped: true, denied_response_status_code: status.TooManyRequests, wait_time: {},
      rate_limiter_info: { label: 'alice', tokens_info: { remaining: 0.5, current: 0.5, consumed: 0 } },
    }],
    wait_time: { seconds: 2, nanos: 0 },
    denied_response_status_code: status.TooManyRequests,
    expect_end: undefined,
  };
  const bytes = wireSerializer(CHECK_RESPONSE)(wire);
  assert.ok(Buffer.isBuffer(bytes));
  const named = { ...wire, decision_type: 'DECISION_TYPE_REJECTED', reject_reason: 'REJECT_REASON_RATE_LIMITED', denied_response_status_code: 'TooManyRequests',
    limiter_decisions: [{ ...wire.limiter_decisions[0], denied_response_status_code: 'TooManyRequests' }] };
  assert.deepEqual(def.responseDeserialize(bytes), def.responseDeserialize(def.responseSerialize(named)));
  const back = def.responseDeserialize(bytes) as { reject_reason: string; expect_end: boolean; limiter_decisions: Array<{ wait_time: unknown; reason: string }> };
  assert.equal(back.reject_reason, 'REJECT_REASON_RATE_LIMITED');
  assert.equal(back.expect_end, false, 'an undefined scalar reads back as its default');
  assert.deepEqual(back.limiter_decisions[0]?.wait_time, { seconds: 0, nanos: 0 }, 'an empty sub-message is present');
  assert.equal(back.limiter_decisions[0]?.reason, 'LIMITER_REASON_UNSPECIFIED');
});

test('withResponseSerializers replaces the named methods\' serializers only', () => {
  const service = serviceClient('flowControl').service;
  const serialize = (): Buffer => Buffer.from([1]);
  const copy = withResponseSerializers(service, { Check: serialize });
  assert.equal(copy.Check?.responseSerialize, serialize);
  assert.equal(copy.Check?.requestDeserialize, service.Check?.requestDeserialize);
  assert.equal(copy.Check?.path, service.Check?.path);
  assert.equal(copy.FlowEnd, service.FlowEnd);
  assert.notEqual(service.Check?.responseSerialize, serialize, 'the loaded definition is left as it was');
  assert.throws(() => withResponseSerializers(service, { Nope: serialize }), /no method Nope/);
});

test('preEncoded: sub-messages held as their bytes, at any depth, read back as if encoded in place', () => {
  const decision = { policy_name: 'p', component_id: 'c', wait_time: {}, rate_limiter_info: { label: 'alice', tokens_info: { remaining: 5, current: 6, consumed: 1 } } };
  const decisionBytes = messageType('aperture.flowcontrol.check.v1.LimiterDecision').encode(decision).finish();
  const pre = { preEncoded: ['aperture.flowcontrol.check.v1.LimiterDecision'] };
  const response = { control_point: 'cp', start: { seconds: 5 }, wait_time: {}, telemetry_flow_labels: { a: 'b' }, decision_type: 1 };
  const check = serviceClient('flowControl').service.Check;
  const spliced = wireSerializer(CHECK_RESPONSE, pre)({ ...response, limiter_decisions: [decisionBytes, decisionBytes] });
  const inPlace = wireSerializer(CHECK_RESPONSE)({ ...response, limiter_decisions: [decision, decision] });
  assert.deepEqual(spliced, inPlace, 'the same bytes');
  const back = check.responseDeserialize(spliced) as { limiter_decisions: Array<{ rate_limiter_info: { label: string } }>; telemetry_flow_labels: Record<string, string> };
  assert.equal(back.limiter_decisions.length, 2);
  assert.equal(back.limiter_decisions[1]?.rate_limiter_info.label, 'alice');
  assert.deepEqual(back.telemetry_flow_labels, { a: 'b' }, 'map fields carried over');
  // two levels down: a stream answer holding a CheckHTTP answer holding the CheckResponse
  const stream = serviceClient('flowControlHttp').service.CheckHTTPStream;
  const answer = (decisions: unknown[]) => ({ id: 7, code: 0, response: { ok_response: { headers: [{ key: 'k', value: 'v' }] }, flow_id: 'f', check_response: { ...response, limiter_decisions: decisions } } });
  const deep = wireSerializer('sluice.flowcontrol.checkhttp.v1.CheckHTTPStreamResponse', pre)(answer([decisionBytes]));
  assert.deepEqual(stream.responseDeserialize(deep), stream.responseDeserialize(wireSerializer('sluice.flowcontrol.checkhttp.v1.CheckHTTPStreamResponse')(answer([decision]))));
  assert.equal(messageType(CHECK_RESPONSE).fields.limiter_decisions?.type, 'LimiterDecision', 'the shared reflection types are left as they are');
});

test('preEncoded: a name that is not a message type is refused', () => {
  assert.throws(() => wireSerializer(CHECK_RESPONSE, { preEncoded: ['aperture.flowcontrol.check.v1.NoSuchMessage'] }));
  assert.throws(() => wireSerializer(CHECK_RESPONSE, { preEncoded: ['aperture.flowcontrol.check.v1.StatusCode'] }), 'an enum is not a message');
});

test('embeddedFieldWriter: a kept prefix and a message field written after it are the bytes of the whole message', () => {
  const decisionType = 'aperture.flowcontrol.check.v1.LimiterDecision';
  const head = { policy_name: 'p', policy_hash: 'h', component_id: 'c', wait_time: {} };
  const info = { label: 'a'.repeat(200), tokens_info: { remaining: 5, current: 6, consumed: 1 } };
  const write = embeddedFieldWriter(decisionType, 'rate_limiter_info');
  const bytes = write(wireSerializer(decisionType)(head), wireSerializer(`${decisionType}.RateLimiterInfo`)(info));
  assert.deepEqual(bytes, wireSerializer(decisionType)({ ...head, rate_limiter_info: info }), 'a body over 127 bytes: a two-byte length');
  assert.deepEqual(write(new Uint8Array(), new Uint8Array()), wireSerializer(decisionType)({ rate_limiter_info: {} }), 'an empty body: the field present');
  assert.throws(() => embeddedFieldWriter(decisionType, 'nope'), /no field nope/);
  assert.throws(() => embeddedFieldWriter(decisionType, 'policy_name'), /not a message field/);
  assert.throws(() => embeddedFieldWriter(CHECK_RESPONSE, 'telemetry_flow_labels'), /not a message field/, 'a map');
});

test('fieldTag: field number and wire type from the .proto; varints as protobufjs writes them', () => {
  const decision = 'aperture.flowcontrol.check.v1.LimiterDecision';
  assert.equal(fieldTag(decision, 'policy_name'), (1 << 3) | 2, 'a string: length-delimited');
  assert.equal(fieldTag(decision, 'dropped'), (4 << 3) | 0, 'a bool: varint');
  assert.equal(fieldTag(decision, 'rate_limiter_info'), (20 << 3) | 2, 'a message');
  assert.equal(fieldTag(`${decision}.TokensInfo`, 'remaining'), (1 << 3) | 1, 'a double: 64-bit');
  assert.throws(() => fieldTag(decision, 'nope'), /no field nope/);
  assert.throws(() => fieldTag(CHECK_RESPONSE, 'limiter_decisions'), /repeated/);
  assert.throws(() => fieldTag(CHECK_RESPONSE, 'telemetry_flow_labels'), /repeated/, 'a map');
  for (const n of [0, 1, 127, 128, 300, 16_383, 16_384, 2 ** 31, 2 ** 40]) {
    const buf = Buffer.alloc(12);
    const end = writeVarint(buf, 1, n);
    assert.equal(end - 1, varintLength(n), `${n}: its length`);
    const reader = protobuf.Reader.create(buf.subarray(1, end));
    assert.equal(Number(reader.uint64()), n, `${n}: reads back`);
  }
});

test('elementTag: the tag of each element of a repeated message field, from the .proto', () => {
  assert.equal(elementTag(CHECK_RESPONSE, 'limiter_decisions'), (messageType(CHECK_RESPONSE).fields.limiter_decisions.id << 3) | 2);
  assert.equal(elementTag(CHECK_RESPONSE, 'limiter_decisions'), (12 << 3) | 2, 'check.proto numbers limiter_decisions 12');
  assert.throws(() => elementTag(CHECK_RESPONSE, 'nope'), /no field nope/);
  assert.throws(() => elementTag(CHECK_RESPONSE, 'control_point'), /not a repeated message field/, 'a singular string');
  assert.throws(() => elementTag(CHECK_RESPONSE, 'services'), /not a repeated message field/, 'repeated strings');
  assert.throws(() => elementTag(CHECK_RESPONSE, 'telemetry_flow_labels'), /not a repeated message field/, 'a map');
});
