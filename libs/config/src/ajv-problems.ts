import type { ErrorObject } from '@sluice/schema';
import type { TSchema } from '@sinclair/typebox';
import { durationProblem, MAX_DURATION_TEXT } from './duration.js';
import { locate, node, schemaAt, type SchemaNode } from './keys.js';
import { nearest, pointerSegments } from '@sluice/schema';
import { describeFormat } from './schema/formats.js';
import { problem, showValue, type ConfigProblem, type ConfigRule } from './problem.js';
import type { ProcessSpec } from './process.js';

const TYPE_NAMES: Readonly<Record<string, string>> = {
  bool: 'a boolean (true or false)',
  string: 'a string',
  duration: 'a duration string such as 10s, 1m30s',
  int64: 'an integer (int64)',
  uint32: 'a non-negative integer (uint32)',
  uint64: 'a non-negative integer (uint64)',
  float64: 'a number (float64)',
  '[]string': 'a list of strings',
  '[]float64': 'a list of numbers',
  'map[string][]string': 'a mapping of header name to list of strings',
  'map[string]string': 'a mapping of names to strings',
};

const JSON_TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string', integer: 'an integer', number: 'a number', boolean: 'a boolean (true or false)',
  array: 'a list', object: 'a mapping of keys (object)',
};

function describeType(schema: SchemaNode | undefined, jsonType: string): string {
  const specType = schema?.['x-spec-type'];
  if (specType !== undefined) return TYPE_NAMES[specType] ?? (specType.startsWith('[]') ? `a list of ${specType.slice(2)} objects` : specType);
  return JSON_TYPE_NAMES[jsonType] ?? jsonType;
}

export type OriginOf = (segments: readonly string[]) => string | undefined;

/** Turns one ajv error into a problem that names the key path, its env variable, the value and the rule. */
export function problemFromAjv(spec: ProcessSpec, error: ErrorObject, originOf: OriginOf): ConfigProblem | undefined {
  if ((error as { propertyName?: string }).propertyName !== undefined) return undefined; // reported by propertyNames
  let segments = pointerSegments(error.instancePath);
  const parent = error.parentSchema as SchemaNode | undefined;
  let value: unknown = error.data;
  let rule: ConfigRule;
  let detail: string;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      value = (error.data as Record<string, unknown>)[key];
      const siblings = Object.keys(parent?.properties ?? {});
      const hint = nearest(key, siblings, Math.max(3, Math.ceil(key.length * 0.6)));
      const base = locate(spec, segments).path;
      const full = (k: string) => (base === '' ? k : `${base}.${k}`);
      rule = 'unknown-key';
      detail = `unknown key (value ${showValue(value)})`;
      if (hint !== undefined) detail += `; did you mean ${full(hint)}?`;
      else if (siblings.length > 0) detail += `; known keys here: ${siblings.join(', ')}`;
      segments = [...segments, key];
      break;
    }
    case 'required': {
      segments = [...segments, String(params.missingProperty)];
      value = undefined;
      rule = 'required';
      detail = 'missing required key';
      break;
    }
    case 'type':
      rule = 'type';
      detail = `value ${showValue(value)} is not ${describeType(parent, String(params.type))}`;
      break;
    case 'minimum':
    case 'exclusiveMinimum':
      rule = 'minimum';
      detail = `value ${showValue(value)} is below the minimum ${String(params.limit)}`;
      break;
    case 'maximum':
    case 'exclusiveMaximum':
      rule = 'maximum';
      detail = `value ${showValue(value)} is above the maximum ${String(params.limit)}`;
      break;
    case 'enum':
      rule = 'enum';
      detail = `value ${showValue(value)} is not one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
      break;
    case 'format': {
      const format = String(params.format);
      rule = format.includes('duration') ? 'duration' : 'format';
      // A well-formed duration past Go's longest is told as such, not as bad syntax (a negative one
      // where only non-negative ones are allowed is still told by the format).
      const tooLarge = rule === 'duration' && typeof value === 'string' && (format === 'signed_duration' || !value.startsWith('-'))
        && durationProblem(value) === 'too-large';
      detail = tooLarge
        ? `value ${showValue(value)} is too large: at most ${MAX_DURATION_TEXT} (about 292 years)`
        : `value ${showValue(value)} is not ${describeFormat(format)}`;
      break;
    }
    case 'minLength':
      rule = 'required';
      detail = `value ${showValue(value)} must not be empty`;
      break;
    case 'propertyNames': {
      const name = String(params.propertyName);
      rule = 'pattern';
      // The map says what its keys are (propertyNames.description); header names otherwise.
      const keys = (error.parentSchema as { propertyNames?: { description?: string } } | undefined)?.propertyNames?.description;
      detail = `key ${showValue(name)} is not ${keys ?? 'a valid HTTP header name'}`;
      break;
    }
    case 'x-increasing':
      rule = 'increasing';
      detail = `value ${showValue(value)} is not strictly increasing (each value must be larger than the one before)`;
      break;
    default:
      rule = 'invalid';
      detail = `value ${showValue(value)} ${error.message ?? 'is not valid'}`;
  }
  const where = locate(spec, segments);
  return problem({ path: where.path, env: where.env, rule, value, origin: originOf(segments) }, detail);
}

/** True when the ajv error is a format error on an empty key that `requireKeys` governs instead. */
export function isEmptyRequiredFormat(schema: TSchema, error: ErrorObject): boolean {
  if (error.keyword !== 'format' || error.data !== '') return false;
  const segments = pointerSegments(error.instancePath);
  const leaf = schemaAt(schema, segments);
  return leaf !== undefined && node(leaf)['x-required'] === true;
}
