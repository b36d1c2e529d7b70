import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceClient } from './load.js';
import { enumNumbers, wireSerializer, withResponseSerializers } from './wire-encoding.js';

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
