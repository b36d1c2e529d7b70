import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as protoLoader from '@grpc/proto-loader';
import * as grpc from '@grpc/grpc-js';
import { LOADER_OPTIONS, PROTO_FILES, jsonToStruct, structToJson, StructConversionError, type ProtoStruct, type ProtoValue } from './index.js';

const sample = {
  match_labels: { 'http.method': 'GET' },
  expression: { any: { of: [{ label_exists: 'a' }, { not: { label_equals: { label: 'b', value: '' } } }] } },
  n: 1.5, t: true, f: false, z: null, list: [1, 'x', [null, {}]], empty: {},
};

test('JSON -> Struct -> JSON round-trips', () => {
  assert.deepEqual(structToJson(jsonToStruct(sample)), sample);
});

test('round-trips through the protobuf wire format with the Sluice loader options', () => {
  const def = protoLoader.loadSync([PROTO_FILES.preview], LOADER_OPTIONS);
  assert.ok(grpc.loadPackageDefinition(def));
  const svc = def['sluice.flowcontrol.preview.v1.FlowPreviewService'] as protoLoader.ServiceDefinition;
  const method = svc.PreviewFlowLabels;
  const bytes = method.requestSerialize({ control_point: 'cp', label_matcher: jsonToStruct(sample) });
  const back = method.requestDeserialize(bytes) as { label_matcher: ProtoStruct };
  assert.deepEqual(structToJson(back.label_matcher), sample);
});

test('a key named __proto__ stays an own member', () => {
  const json = structToJson({ fields: JSON.parse('{"__proto__":{"stringValue":"x"}}') as Record<string, ProtoValue> });
  assert.equal((json as Record<string, unknown>)['__proto__'], 'x');
  assert.ok(Object.prototype.hasOwnProperty.call(json, '__proto__'));
  assert.equal(Object.getPrototypeOf(json), Object.prototype);
  const back = structToJson(jsonToStruct(JSON.parse('{"__proto__":{"a":1}}') as Record<string, unknown>));
  assert.deepEqual(Object.keys(back), ['__proto__']);
});

test('depth is bounded both ways', () => {
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 100; i++) deep = { a: deep };
  assert.throws(() => jsonToStruct(deep), StructConversionError);
  assert.doesNotThrow(() => jsonToStruct(deep, 200));
  const s = jsonToStruct(deep, 200);
  assert.throws(() => structToJson(s), /deeper than 64/);
  let arr: unknown = [];
  for (let i = 0; i < 100; i++) arr = [arr];
  assert.throws(() => jsonToStruct({ arr }), StructConversionError);
});

test('values without a JSON form are refused', () => {
  assert.throws(() => jsonToStruct({ x: Number.NaN }), StructConversionError);
  assert.throws(() => jsonToStruct({ x: () => 1 }), StructConversionError);
  assert.deepEqual(structToJson(jsonToStruct({ x: undefined, y: 1 })), { y: 1 });
  assert.deepEqual(structToJson(undefined), {});
});
