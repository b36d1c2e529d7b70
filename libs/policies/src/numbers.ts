import type { TSchema } from '@sinclair/typebox';
import { parseProto3Number } from './schema/fields.js';
import { indexPath, isJsonObject, memberPath } from './path.js';
import type { PolicyProblem } from './problems.js';

interface Node {
  type?: string;
  properties?: Record<string, TSchema>;
  additionalProperties?: TSchema | boolean;
  items?: TSchema;
  'x-sluice-nonfinite'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** `obj[key] = value` that keeps keys such as `__proto__` as own properties. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Walks a value beside its schema and turns the proto3 JSON forms of numbers into numbers: a
 * string where the schema wants a number (`priority: "50"`, `value: "NaN"`) becomes that number;
 * a string that is not one is a problem at its path. Strings in `x-sluice-nonfinite` fields may be
 * NaN and ±Infinity; a number elsewhere is left for the schema to judge. Answers a copy: the input
 * is not changed. Parts of the wrong shape are left as they are (the schema reports them).
 */
export function normaliseNumbers(value: unknown, schema: TSchema, root: string): { value: unknown; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const walk = (v: unknown, s: TSchema | boolean | undefined, path: string): unknown => {
    if (s === undefined || typeof s === 'boolean') return v;
    const n = s as Node;
    if (n.type === 'number' || n.type === 'integer') {
      if (typeof v !== 'string') return v;
      const parsed = parseProto3Number(v, n.type === 'integer' ? 'integer' : 'double', n['x-sluice-nonfinite'] === true);
      if ('error' in parsed) {
        problems.push({ path, message: parsed.error });
        return v;
      }
      return parsed.value;
    }
    if (n['x-kubernetes-preserve-unknown-fields'] === true) return v;
    if (Array.isArray(v)) return n.items === undefined ? v : v.map((item, i) => walk(item, n.items, indexPath(path, i)));
    if (!isJsonObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      const child = n.properties !== undefined && Object.hasOwn(n.properties, key) ? n.properties[key] : n.additionalProperties;
      setOwn(out, key, walk(v[key], child, memberPath(path, key)));
    }
    return out;
  };
  return { value: walk(value, schema, root), problems };
}
