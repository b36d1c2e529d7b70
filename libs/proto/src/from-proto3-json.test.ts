import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as protoLoader from '@grpc/proto-loader';
import { InvalidArgumentError } from '@sluice/errors';
import { fromProto3Json } from './from-proto3-json.js';
import type { CheckHTTPRequest__Output } from './generated/index.js';
import { LOADER_OPTIONS, PROTO_FILES } from './load.js';
import { parseDurationJson, parseTimestampJson } from './proto3-time.js';
import { toProto3Json } from './to-proto3-json.js';

const CHECKHTTP = 'sluice.flowcontrol.checkhttp.v1.CheckHTTPRequest';

function loaderType(file: string, name: string): protoLoader.MessageTypeDefinition<object, object> {
  return protoLoader.loadSync([file], LOADER_OPTIONS)[name] as protoLoader.MessageTypeDefinition<object, object>;
}

test('lowerCamelCase JSON names become .proto names the loader encodes; null is unset', () => {
  const msg = fromProto3Json(CHECKHTTP, { controlPoint: 'ingress', rampMode: true, source: null, request: { truncatedBody: true, method: 'GET', headers: { 'x-a': 'b' } } });
  assert.deepEqual(msg, { control_point: 'ingress', ramp_mode: true, request: { truncated_body: true, method: 'GET', headers: { 'x-a': 'b' } } });
  const type = loaderType(PROTO_FILES.checkhttp, CHECKHTTP);
  const back = type.deserialize(type.serialize(msg)) as CheckHTTPRequest__Output;
  assert.equal(back.control_point, 'ingress');
  assert.equal(back.request?.truncated_body, true, 'not lost on the way to the wire');
});

test('Timestamps, Durations and Structs from their JSON forms, the inverse of toProto3Json', () => {
  const end = fromProto3Json('aperture.flowcontrol.check.v1.FlowEndRequest', { duration: '1.5s', control_point: 'c' });
  assert.deepEqual(end, { duration: { seconds: 1, nanos: 500_000_000 }, control_point: 'c' });
  assert.equal(toProto3Json('aperture.flowcontrol.check.v1.FlowEndRequest', end).duration, '1.5s');
  const cp = fromProto3Json('sluice.flowcontrol.controlpoints.v1.ControlPoint', { last_seen: '2026-11-22T02:20:37.876711Z' });
  assert.deepEqual(cp, { last_seen: { seconds: 1795314037, nanos: 876_711_000 } });
  assert.equal(toProto3Json('sluice.flowcontrol.controlpoints.v1.ControlPoint', cp).last_seen, '2026-11-22T02:20:37.876711Z');
  const preview = fromProto3Json('sluice.flowcontrol.preview.v1.PreviewRequest', { label_matcher: { match_labels: { a: 'b' }, n: [1, null] } });
  const json = toProto3Json('sluice.flowcontrol.preview.v1.PreviewRequest', preview);
  assert.deepEqual(json.label_matcher, { match_labels: { a: 'b' }, n: [1, null] });
});

test('bad Timestamps and Durations are refused with their path', () => {
  const bad: Array<[string, unknown, string]> = [
    ['sluice.flowcontrol.controlpoints.v1.ControlPoint', { last_seen: 'yesterday' }, 'last_seen'],
    ['sluice.flowcontrol.controlpoints.v1.ControlPoint', { last_seen: '2026-13-45T00:00:00Z' }, 'last_seen'],
    ['aperture.flowcontrol.check.v1.FlowEndRequest', { duration: '10m' }, 'duration'],
    ['aperture.flowcontrol.check.v1.FlowEndRequest', { duration: '1.5' }, 'duration'],
  ];
  for (const [type, json, field] of bad) {
    assert.throws(() => fromProto3Json(type, json), (err: unknown) => err instanceof InvalidArgumentError && err.field === field, JSON.stringify(json));
  }
});

test('RFC 3339 offsets, fractions and the Duration sign', () => {
  assert.deepEqual(parseTimestampJson('1970-01-01T01:00:00.5+01:00'), { seconds: 0, nanos: 500_000_000 });
  assert.deepEqual(parseTimestampJson('1970-01-01T00:00:01.000000001Z'), { seconds: 1, nanos: 1 });
  assert.equal(parseTimestampJson('1970-01-01 00:00:00Z'), undefined);
  assert.deepEqual(parseDurationJson('-0.25s'), { seconds: 0, nanos: -250_000_000 });
  assert.deepEqual(parseDurationJson('-2.5s'), { seconds: -2, nanos: -500_000_000 });
  assert.deepEqual(parseDurationJson('0s'), { seconds: 0, nanos: 0 });
  assert.equal(parseDurationJson('1.5ms'), undefined);
});
