import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Builders for the leaves of the configuration schema. Each leaf carries its
 * reference type in `x-spec-type` (shown in the documentation and in messages) and
 * a `description`; defaults, bounds, enums and formats are plain JSON Schema.
 */

const INT64_MAX = Number.MAX_SAFE_INTEGER;
const INT64_MIN = Number.MIN_SAFE_INTEGER;
const UINT32_MAX = 4_294_967_295;

export interface Bounds {
  minimum?: number;
  maximum?: number;
}

export function bool(defaultValue: boolean, description: string) {
  return Type.Boolean({ default: defaultValue, description, 'x-spec-type': 'bool' });
}

export function str(defaultValue: string, description: string) {
  return Type.String({ default: defaultValue, description, 'x-spec-type': 'string' });
}

/** A secret string: masked as `****` by --print-config when set. */
export function secret(description: string) {
  return Type.String({ default: '', description, 'x-spec-type': 'string', 'x-secret': true });
}

/** A string in one of the address formats (see formats.ts). */
export function address(format: string, defaultValue: string, description: string) {
  return Type.String({ default: defaultValue, format, description, 'x-spec-type': 'string' });
}

/** A string in one of the other formats (see formats.ts), such as `image` or `dns_label`. */
export function formatted(format: string, defaultValue: string, description: string) {
  return address(format, defaultValue, description);
}

export function oneOf<T extends string>(values: readonly T[], defaultValue: T, description: string) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], default: defaultValue, description, 'x-spec-type': 'string' });
}

/** A Go duration string; negative values only where a key gives them a meaning. */
export function duration(defaultValue: string, description: string, opts: { allowNegative?: boolean } = {}) {
  return Type.String({
    default: defaultValue,
    format: opts.allowNegative === true ? 'signed_duration' : 'duration',
    description,
    'x-spec-type': 'duration',
  });
}

export function int64(defaultValue: number, description: string, bounds: Bounds = {}) {
  return Type.Integer({
    default: defaultValue,
    minimum: bounds.minimum ?? INT64_MIN,
    maximum: bounds.maximum ?? INT64_MAX,
    description,
    'x-spec-type': 'int64',
  });
}

export function uint32(defaultValue: number, description: string, bounds: Bounds = {}) {
  return Type.Integer({
    default: defaultValue,
    minimum: bounds.minimum ?? 0,
    maximum: bounds.maximum ?? UINT32_MAX,
    description,
    'x-spec-type': 'uint32',
  });
}

export function uint64(defaultValue: number, description: string) {
  return Type.Integer({ default: defaultValue, minimum: 0, maximum: INT64_MAX, description, 'x-spec-type': 'uint64' });
}

export function float64(defaultValue: number, description: string, bounds: Bounds = {}) {
  return Type.Number({ default: defaultValue, ...bounds, description, 'x-spec-type': 'float64' });
}

/** A list of numbers; `increasing` demands each value be larger than the one before. */
export function floatList(defaultValue: number[], description: string, opts: Bounds & { increasing?: boolean } = {}) {
  const { increasing, ...bounds } = opts;
  return Type.Array(Type.Number(bounds), {
    default: defaultValue,
    description,
    'x-spec-type': '[]float64',
    ...(increasing === true ? { 'x-increasing': true } : {}),
  });
}

export function stringList(description: string, itemFormat?: string) {
  const item = itemFormat === undefined ? Type.String() : Type.String({ format: itemFormat });
  return Type.Array(item, { default: [], description, 'x-spec-type': '[]string' });
}

/** A list of objects; `typeName` is the reference's object name of the elements. */
export function objectList<T extends TSchema>(item: T, typeName: string, description: string) {
  return Type.Array(item, { default: [], description, 'x-spec-type': `[]${typeName}` });
}

/**
 * A leaf also read from `name`, the variable that set it before it was a key of the tree; kept
 * for one release (the loader reads it when the key's own variable is not set, and says so).
 */
export function oldEnv<T extends TSchema>(schema: T, name: string): T {
  return Object.assign(schema, { 'x-old-env': name });
}

/** A TCP port, 1..65535. */
export function port(defaultValue: number, description: string) {
  return int64(defaultValue, description, { minimum: 1, maximum: 65_535 });
}

/**
 * A key (or every key under an object) that is accepted, checked and documented, but whose value
 * changes nothing today; `reason` says why (docs/configuration.md shows it). A copy is marked, so
 * an object shared with keys that do take effect keeps its other uses unmarked.
 */
export function noEffect<T extends TSchema>(schema: T, reason: string): T {
  return { ...schema, 'x-no-effect': reason };
}
