import { Type, type Static, type TSchema, type TProperties, type ObjectOptions } from '@sinclair/typebox';

/**
 * Builders for the policy schema. Every node is plain JSON Schema, written so
 * that the same tree serves ajv (validation), TypeBox (the TS types), the
 * CRD's structural openAPIV3Schema and docs/policies.md:
 * - every object has `type: object`; maps use `additionalProperties: <schema>`;
 * - free-form members are `{type: object, x-kubernetes-preserve-unknown-fields: true}`;
 * - a protobuf `oneof` is an object of optional members with `maxProperties: 1`
 *   (and `minProperties: 1` when one is required), never anyOf/oneOf;
 * - `x-sluice-unsupported` marks Aperture members Sluice refuses by name,
 *   `x-sluice-ignored` inert members accepted and reported as ignored.
 */

/** A closed object: unknown members are refused. */
export function obj<P extends TProperties>(properties: P, description: string, options: ObjectOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, description, ...options });
}

/** A map of string keys (`flux_meters`, classifier `rules`). */
export function map<T extends TSchema>(value: T, description: string, keyPattern?: string) {
  return Type.Unsafe<Record<string, Static<T>>>({
    type: 'object',
    additionalProperties: value,
    description,
    ...(keyPattern === undefined ? {} : { propertyNames: { pattern: keyPattern } }),
  });
}

/** A member whose shape is free-form (label matcher, inert resources). */
export function freeForm(description: string, extra: Record<string, unknown> = {}) {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description, ...extra });
}

/** An Aperture member that Sluice does not build: accepted by the schema, refused by name at compile time. */
export function unsupported(description: string) {
  return freeForm(description, { 'x-sluice-unsupported': true });
}

/** An inert Aperture member: accepted and listed in `ignored`. */
export function ignored(description: string) {
  return freeForm(description, { 'x-sluice-ignored': true });
}

/** An inert Aperture list member: accepted and listed in `ignored`. */
export function ignoredList(description: string) {
  return Type.Unsafe<Record<string, unknown>[]>({
    type: 'array',
    items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    description,
    'x-sluice-ignored': true,
  });
}

/**
 * The shortest evaluation interval a policy may ask for, of its circuit and of each PromQL query. A
 * circuit tick costs a fraction of a millisecond of the controller's event loop and may publish to
 * etcd, a query is an HTTP round trip to Prometheus: at 1 ms one policy alone kept ~6% of a core busy.
 * At 100 ms (ten ticks a second) it ticks a hundredth as often, and nothing a policy reads
 * (agent reports, Prometheus samples scraped every few seconds) changes faster than that.
 */
export const MIN_EVALUATION_INTERVAL = '100ms';
export const MIN_EVALUATION_INTERVAL_MS = 100;

/** An evaluation interval: a Go duration of at least MIN_EVALUATION_INTERVAL. */
export function interval(description: string, defaultValue: string) {
  return Type.String({ format: 'evaluation_interval', description, 'x-sluice-type': 'duration', default: defaultValue });
}

/** A Go duration string (`10s`, `1m30s`); `positive` refuses zero and negative ones. */
export function duration(description: string, defaultValue: string | undefined, positive: boolean) {
  return Type.String({
    format: positive ? 'positive_duration' : 'nonnegative_duration',
    description,
    'x-sluice-type': 'duration',
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
  });
}

export function str(description: string, options: { default?: string; minLength?: number; pattern?: string } = {}) {
  return Type.String({ description, ...options });
}

export function bool(description: string, defaultValue: boolean) {
  return Type.Boolean({ description, default: defaultValue });
}

/**
 * Numbers as proto3 JSON writes them. Every numeric field of a policy takes a JSON number or a
 * string: a decimal integer (`"50"`, the form of int64/uint64 fields) for integer fields; for
 * double fields a decimal number (`"0.5"`, `"1e3"`) and, where the field is marked with
 * `x-sluice-nonfinite`, `"NaN"`, `"Infinity"` and `"-Infinity"`. `normaliseNumbers` (numbers.ts)
 * turns them into numbers before anything else reads the spec; the CRD lets such fields take a
 * string too (`x-kubernetes-int-or-string` for integers, any value for doubles).
 */
export type NumberKind = 'double' | 'integer';

const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** The number a proto3 JSON value stands for, or why it is not one (`allowNonFinite`: NaN and ±Infinity are numbers). */
export function parseProto3Number(value: unknown, kind: NumberKind, allowNonFinite: boolean): { value: number } | { error: string } {
  const wanted = kind === 'integer'
    ? 'an integer (a JSON number, or a decimal string such as "50")'
    : allowNonFinite
      ? 'a number (a JSON number, a decimal string such as "0.5", or "NaN", "Infinity", "-Infinity")'
      : 'a finite number (a JSON number, or a decimal string such as "0.5")';
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    if (kind === 'double' && (value === 'NaN' || value === 'Infinity' || value === '-Infinity')) {
      if (!allowNonFinite) return { error: `${JSON.stringify(value)} is not allowed here: want ${wanted}` };
      return { value: value === 'NaN' ? Number.NaN : value === 'Infinity' ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY };
    }
    if (!DECIMAL.test(value)) return { error: `${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)} is not ${wanted}` };
    n = Number(value);
  } else return { error: `${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value} is not ${wanted}` };
  if (!Number.isFinite(n) && !allowNonFinite) return { error: `${String(value)} is out of range: want ${wanted}` };
  if (kind === 'integer' && !Number.isInteger(n)) return { error: `${JSON.stringify(value)} is not ${wanted}` };
  return { value: n };
}

/** A double field (proto3 `double`); `nonFinite`: NaN, Infinity and -Infinity are allowed (as strings). */
export function num(description: string, options: { default?: number; minimum?: number; maximum?: number; exclusiveMinimum?: number; nonFinite?: boolean } = {}) {
  const { nonFinite, ...bounds } = options;
  return Type.Number({ description, ...bounds, ...(nonFinite === true ? { 'x-sluice-nonfinite': true } : {}) });
}

/** An integer field (proto3 int32/int64/uint32/uint64). */
export function int(description: string, options: { default?: number; minimum?: number; maximum?: number } = {}) {
  return Type.Integer({ description, ...options });
}

export function strEnum<T extends string>(values: readonly T[], description: string, defaultValue?: T) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], description, ...(defaultValue === undefined ? {} : { default: defaultValue }) });
}

export function list<T extends TSchema>(item: T, description: string, options: { minItems?: number; maxItems?: number } = {}) {
  return Type.Array(item, { description, ...options });
}
