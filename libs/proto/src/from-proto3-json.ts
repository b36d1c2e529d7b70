import type protobuf from 'protobufjs';
import { InvalidArgumentError, ErrorCode } from '@sluice/errors';
import { checkJsonMessage } from './check-json-message.js';
import { jsonField } from './json-field.js';
import { parseDurationJson, parseTimestampJson } from './proto3-time.js';
import { messageType } from './reflection.js';
import { StructConversionError, jsonToStruct, jsonToValue } from './struct.js';

const ANY_JSON = new Set(['.google.protobuf.Struct', '.google.protobuf.Value', '.google.protobuf.ListValue']);

/** google.protobuf.Struct, Value and ListValue: any JSON, in the loader's shape. */
function anyJson(typeName: string, v: unknown, path: string): unknown {
  try {
    if (typeName === '.google.protobuf.Struct') return jsonToStruct(v as Record<string, unknown>);
    if (typeName === '.google.protobuf.Value') return jsonToValue(v);
    return { values: (v as unknown[]).map((item) => jsonToValue(item)) };
  } catch (err) {
    if (err instanceof StructConversionError) throw new InvalidArgumentError(`${path}: ${err.message}`, path, ErrorCode.INVALID_MESSAGE);
    throw err;
  }
}

function valueOf(field: protobuf.Field, v: unknown, path: string): unknown {
  const t = field.resolvedType;
  if (t === null || !('fields' in t)) return v;
  const type = t as protobuf.Type;
  if (typeof v === 'string' && type.fullName === '.google.protobuf.Timestamp') return parseTimestampJson(v);
  if (typeof v === 'string' && type.fullName === '.google.protobuf.Duration') return parseDurationJson(v);
  if (ANY_JSON.has(type.fullName)) return anyJson(type.fullName, v, path);
  return messageOf(type, v as Record<string, unknown>, path);
}

function messageOf(type: protobuf.Type, obj: Record<string, unknown>, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    const field = jsonField(type, key);
    const v = obj[key];
    if (field === undefined || v === null || v === undefined) continue; // a oneof's name is no field; null is unset
    const at = path === '' ? key : `${path}.${key}`;
    if (field.map) {
      const m: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) m[k] = valueOf(field, item, `${at}[${JSON.stringify(k)}]`);
      out[field.name] = m;
    } else if (field.repeated) {
      out[field.name] = (v as unknown[]).map((item, i) => valueOf(field, item, `${at}[${i}]`));
    } else {
      out[field.name] = valueOf(field, v, at);
    }
  }
  return out;
}

/**
 * A message from its proto3 JSON, for the loader to encode: checked first
 * (checkJsonMessage: throws InvalidArgumentError naming the JSON path), then
 * with .proto field names for lowerCamelCase JSON names, `null` members left
 * out, Timestamps/Durations (`"2026-01-02T03:04:05Z"`, `"1.5s"`) as
 * `{seconds, nanos}` and Struct/Value/ListValue JSON in the loader's shape.
 * The inverse of toProto3Json.
 */
export function fromProto3Json<T = Record<string, unknown>>(fullName: string, json: unknown): T {
  checkJsonMessage(fullName, json);
  return messageOf(messageType(fullName), json as Record<string, unknown>, '') as T;
}
