import type protobuf from 'protobufjs';
import { InvalidArgumentError, ErrorCode } from '@sluice/errors';
import { parseDurationJson, parseTimestampJson } from './proto3-time.js';
import { jsonField } from './json-field.js';
import { messageType } from './reflection.js';

const INT32 = new Set(['int32', 'sint32', 'sfixed32']);
const UINT32 = new Set(['uint32', 'fixed32']);
const INT64 = new Set(['int64', 'sint64', 'sfixed64']);
const UINT64 = new Set(['uint64', 'fixed64']);
const FLOAT = new Set(['double', 'float']);
/** google.protobuf.Struct/Value/ListValue carry any JSON. */
const ANY_JSON = new Set(['.google.protobuf.Struct', '.google.protobuf.Value', '.google.protobuf.ListValue']);

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function fail(path: string, message: string): never {
  throw new InvalidArgumentError(`${path}: ${message}`, path, ErrorCode.INVALID_MESSAGE);
}

function checkInteger(v: unknown, path: string, min: number, max: number, type: string): void {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail(path, `want ${type} (a whole number), got ${kind(v)} ${JSON.stringify(v)}`);
  if (n < min || n > max) fail(path, `${n} is out of range for ${type}`);
}

function checkScalar(field: protobuf.Field, v: unknown, path: string): void {
  const t = field.type;
  if (t === 'string') { if (typeof v !== 'string') fail(path, `want a string, got ${kind(v)}`); return; }
  if (t === 'bool') { if (typeof v !== 'boolean') fail(path, `want true or false, got ${kind(v)}`); return; }
  if (t === 'bytes') { if (typeof v !== 'string') fail(path, `want base64 bytes as a string, got ${kind(v)}`); return; }
  if (INT32.has(t)) return checkInteger(v, path, -(2 ** 31), 2 ** 31 - 1, t);
  if (UINT32.has(t)) return checkInteger(v, path, 0, 2 ** 32 - 1, t);
  if (INT64.has(t)) return checkInteger(v, path, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, t);
  if (UINT64.has(t)) return checkInteger(v, path, 0, Number.MAX_SAFE_INTEGER, t);
  if (FLOAT.has(t)) {
    const ok = typeof v === 'number' || (typeof v === 'string' && (v === 'NaN' || v === 'Infinity' || v === '-Infinity' || (v.trim() !== '' && Number.isFinite(Number(v)))));
    if (!ok) fail(path, `want a number, got ${kind(v)} ${JSON.stringify(v)}`);
    return;
  }
  fail(path, `unsupported field type ${t}`);
}

function checkEnum(type: protobuf.Enum, v: unknown, path: string): void {
  if (typeof v === 'string' && Object.prototype.hasOwnProperty.call(type.values, v)) return;
  if (typeof v === 'number' && Object.values(type.values).includes(v)) return;
  fail(path, `want one of ${Object.keys(type.values).join(', ')}, got ${JSON.stringify(v)}`);
}

function checkValue(field: protobuf.Field, v: unknown, path: string): void {
  const resolved = field.resolvedType;
  if (resolved === null) return checkScalar(field, v, path);
  if ('values' in resolved && !('fields' in resolved)) return checkEnum(resolved as protobuf.Enum, v, path);
  const msg = resolved as protobuf.Type;
  if (ANY_JSON.has(msg.fullName)) return;
  if (msg.fullName === '.google.protobuf.Timestamp' && typeof v === 'string') {
    if (parseTimestampJson(v) === undefined) fail(path, `want an RFC 3339 timestamp (2006-01-02T15:04:05Z), got ${JSON.stringify(v)}`);
    return;
  }
  if (msg.fullName === '.google.protobuf.Duration' && typeof v === 'string') {
    if (parseDurationJson(v) === undefined) fail(path, `want a duration in seconds (1.5s), got ${JSON.stringify(v)}`);
    return;
  }
  checkObject(msg, v, path);
}

/** Our messages do not nest themselves (Struct aside, which is not walked), so recursion is bounded by the schema. */
function checkObject(type: protobuf.Type, v: unknown, path: string): void {
  if (kind(v) !== 'object') fail(path === '' ? 'body' : path, `want a JSON object (${type.name}), got ${kind(v)}`);
  const obj = v as Record<string, unknown>;
  const oneofSeen = new Map<string, string>();
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    const at = path === '' ? key : `${path}.${key}`;
    const field = jsonField(type, key);
    if (field === undefined) {
      if (type.oneofs !== undefined && Object.prototype.hasOwnProperty.call(type.oneofs, key)) continue; // the loader's `oneofs` discriminator (`http_response`)
      fail(at, `unknown field; ${type.name} has ${Object.keys(type.fields).join(', ')}`);
    }
    if (value === null) continue;
    if (field.partOf !== null && field.partOf !== undefined) {
      const other = oneofSeen.get(field.partOf.name);
      if (other !== undefined) fail(at, `only one of ${field.partOf.name} may be set (also ${other})`);
      oneofSeen.set(field.partOf.name, key);
    }
    if (field.map) {
      if (kind(value) !== 'object') fail(at, `want a JSON object (map), got ${kind(value)}`);
      for (const [k, item] of Object.entries(value as Record<string, unknown>)) checkValue(field, item, `${at}[${JSON.stringify(k)}]`);
    } else if (field.repeated) {
      if (!Array.isArray(value)) fail(at, `want a JSON array, got ${kind(value)}`);
      value.forEach((item, i) => checkValue(field, item, `${at}[${i}]`));
    } else {
      checkValue(field, value, at);
    }
  }
}

/**
 * Checks JSON against a message of the Sluice protos by the proto3 JSON
 * mapping, strictly: unknown fields, wrong types, out-of-range integers,
 * unknown enum names and two members of a oneof are refused with an
 * InvalidArgumentError naming the JSON path (`request.size`). Field names
 * may be the .proto's or their lowerCamelCase JSON names; `null` means unset.
 * Answers the JSON unchanged.
 */
export function checkJsonMessage<T = Record<string, unknown>>(fullName: string, json: unknown): T {
  checkObject(messageType(fullName), json, '');
  return json as T;
}
