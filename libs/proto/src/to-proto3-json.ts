import type protobuf from 'protobufjs';
import { messageType } from './reflection.js';
import { structToJson, valueToJson, type ProtoStruct, type ProtoValue } from './struct.js';

interface Seconds { seconds?: number | string | null; nanos?: number | null }

function secondsOf(v: Seconds): { s: number; n: number } {
  return { s: Number(v.seconds ?? 0), n: Number(v.nanos ?? 0) };
}

/** RFC 3339 with as many fraction digits as needed (the proto3 JSON form of a Timestamp). */
function timestampJson(v: Seconds): string {
  const { s, n } = secondsOf(v);
  const iso = new Date(s * 1000).toISOString().replace('.000Z', '');
  if (n === 0) return `${iso.replace(/Z$/, '')}Z`;
  const frac = String(n).padStart(9, '0').replace(/0+$/, '');
  return `${iso.replace(/Z$/, '')}.${frac}Z`;
}

/** Seconds with a fraction and an `s` (the proto3 JSON form of a Duration): `0s`, `1.5s`, `-0.25s`. */
function durationJson(v: Seconds): string {
  const { s, n } = secondsOf(v);
  if (n === 0) return `${s}s`;
  const neg = s < 0 || n < 0;
  const frac = String(Math.abs(n)).padStart(9, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${Math.abs(s)}.${frac}s`;
}

function valueJson(field: protobuf.Field, v: unknown): unknown {
  const t = field.resolvedType;
  if (t === null || v === null || typeof v !== 'object') return v;
  if (!('fields' in t)) return v;
  const type = t as protobuf.Type;
  if (type.fullName === '.google.protobuf.Timestamp') return timestampJson(v as Seconds);
  if (type.fullName === '.google.protobuf.Duration') return durationJson(v as Seconds);
  if (type.fullName === '.google.protobuf.Struct') return structToJson(v as ProtoStruct);
  if (type.fullName === '.google.protobuf.Value') return valueToJson(v as ProtoValue);
  if (type.fullName === '.google.protobuf.ListValue') return ((v as { values?: ProtoValue[] | null }).values ?? []).map((x) => valueToJson(x));
  return messageJson(type, v as Record<string, unknown>);
}

function messageJson(type: protobuf.Type, obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    const field = type.fields[key];
    if (field === undefined) continue; // the loader's oneof discriminators (`http_response`) are not fields
    const v = obj[key];
    if (v === null || v === undefined) continue;
    if (field.map) {
      const m: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) m[k] = valueJson(field, item);
      out[key] = m;
    } else if (field.repeated && Array.isArray(v)) {
      out[key] = v.map((item) => valueJson(field, item));
    } else {
      out[key] = valueJson(field, v);
    }
  }
  return out;
}

/**
 * A decoded message (as the loader gives it: .proto field names, enums as
 * names) in proto3 JSON form: Timestamps as RFC 3339 strings, Durations as
 * `"1.5s"`, Struct/Value/ListValue as plain JSON, unset members and the
 * loader's oneof discriminators left out.
 */
export function toProto3Json(fullName: string, message: unknown): Record<string, unknown> {
  if (message === null || typeof message !== 'object') return {};
  return messageJson(messageType(fullName), message as Record<string, unknown>);
}
