import type { TSchema } from '@sinclair/typebox';
import { isPlainObject } from './defaults.js';
import { node } from './keys.js';

export const MASK = '****';

/** A copy of the configuration with every set secret (password, api_key, dsn) replaced by `****`. */
export function maskSecrets<T>(schema: TSchema, config: T): T {
  const walk = (s: TSchema, value: unknown): unknown => {
    const n = node(s);
    if (n['x-secret'] === true) return typeof value === 'string' && value !== '' ? MASK : value;
    if (n.properties !== undefined && isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = n.properties[k] === undefined ? v : walk(n.properties[k], v);
      return out;
    }
    if (n.items !== undefined && Array.isArray(value)) return value.map((item) => walk(n.items as TSchema, item));
    return value;
  };
  return walk(schema, config) as T;
}
