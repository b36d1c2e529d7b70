/**
 * google.protobuf.Struct <-> plain JSON, for messages loaded with the Sluice
 * loader options. The well-known types come from protobufjs, whose field
 * names are camelCase (`stringValue`, `structValue`) whatever keepCase says;
 * enums travel as strings (`NULL_VALUE`).
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** google.protobuf.Value as grpc-js hands it over (or accepts it). */
export interface ProtoValue {
  nullValue?: 'NULL_VALUE' | number | null;
  numberValue?: number;
  stringValue?: string;
  boolValue?: boolean;
  structValue?: ProtoStruct | null;
  listValue?: ProtoListValue | null;
  kind?: string;
}

export interface ProtoStruct {
  fields?: Record<string, ProtoValue> | null;
}

export interface ProtoListValue {
  values?: ProtoValue[] | null;
}

/** Default bound on nesting (objects and arrays) when converting. */
export const STRUCT_MAX_DEPTH = 64;

/** Thrown when a value cannot be represented, or nests deeper than allowed. */
export class StructConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StructConversionError';
  }
}

function tooDeep(maxDepth: number): StructConversionError {
  return new StructConversionError(`value nests deeper than ${maxDepth} levels`);
}

/** A plain JSON object as a google.protobuf.Struct. */
export function jsonToStruct(obj: Readonly<Record<string, unknown>>, maxDepth = STRUCT_MAX_DEPTH): ProtoStruct {
  return objectToStruct(obj, 1, maxDepth);
}

/** Any JSON value as a google.protobuf.Value. */
export function jsonToValue(value: unknown, maxDepth = STRUCT_MAX_DEPTH): ProtoValue {
  return toValue(value, 0, maxDepth);
}

function objectToStruct(obj: Readonly<Record<string, unknown>>, depth: number, maxDepth: number): ProtoStruct {
  if (depth > maxDepth) throw tooDeep(maxDepth);
  const fields: Record<string, ProtoValue> = {};
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === undefined) continue;
    Object.defineProperty(fields, key, { value: toValue(v, depth, maxDepth), enumerable: true, writable: true, configurable: true });
  }
  return { fields };
}

function toValue(value: unknown, depth: number, maxDepth: number): ProtoValue {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  switch (typeof value) {
    case 'string': return { stringValue: value };
    case 'boolean': return { boolValue: value };
    case 'number':
      if (!Number.isFinite(value)) throw new StructConversionError(`number ${value} has no JSON form`);
      return { numberValue: value };
    case 'object':
      if (Array.isArray(value)) {
        if (depth + 1 > maxDepth) throw tooDeep(maxDepth);
        const values: ProtoValue[] = [];
        for (const v of value) values.push(toValue(v === undefined ? null : v, depth + 1, maxDepth));
        return { listValue: { values } };
      }
      return { structValue: objectToStruct(value as Record<string, unknown>, depth + 1, maxDepth) };
    default:
      throw new StructConversionError(`a ${typeof value} has no JSON form`);
  }
}

/** A google.protobuf.Struct as a plain JSON object (a missing struct is `{}`). */
export function structToJson(struct: ProtoStruct | null | undefined, maxDepth = STRUCT_MAX_DEPTH): JsonObject {
  return structTo(struct, 1, maxDepth);
}

/** A google.protobuf.Value as plain JSON. */
export function valueToJson(value: ProtoValue | null | undefined, maxDepth = STRUCT_MAX_DEPTH): JsonValue {
  return fromValue(value, 0, maxDepth);
}

function structTo(struct: ProtoStruct | null | undefined, depth: number, maxDepth: number): JsonObject {
  if (depth > maxDepth) throw tooDeep(maxDepth);
  const out: JsonObject = {};
  const fields = struct?.fields;
  if (fields === undefined || fields === null) return out;
  for (const key of Object.keys(fields)) {
    // defineProperty: a key such as "__proto__" stays an ordinary member.
    Object.defineProperty(out, key, { value: fromValue(fields[key], depth, maxDepth), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function kindOf(v: ProtoValue): string | undefined {
  if (typeof v.kind === 'string') return v.kind;
  if (v.structValue !== undefined && v.structValue !== null) return 'structValue';
  if (v.listValue !== undefined && v.listValue !== null) return 'listValue';
  if (v.stringValue !== undefined) return 'stringValue';
  if (v.numberValue !== undefined) return 'numberValue';
  if (v.boolValue !== undefined) return 'boolValue';
  return undefined;
}

function fromValue(v: ProtoValue | null | undefined, depth: number, maxDepth: number): JsonValue {
  if (v === undefined || v === null) return null;
  switch (kindOf(v)) {
    case 'stringValue': return v.stringValue ?? '';
    case 'numberValue': return v.numberValue ?? 0;
    case 'boolValue': return v.boolValue ?? false;
    case 'structValue': return structTo(v.structValue, depth + 1, maxDepth);
    case 'listValue': {
      if (depth + 1 > maxDepth) throw tooDeep(maxDepth);
      const out: JsonValue[] = [];
      for (const item of v.listValue?.values ?? []) out.push(fromValue(item, depth + 1, maxDepth));
      return out;
    }
    default: return null;
  }
}
