import type { TSchema } from '@sinclair/typebox';
import { isPlainObject } from './defaults.js';
import { node } from './keys.js';

/**
 * The values of every set secret of the configuration (the keys the schema marks `x-secret`:
 * passwords, API keys, crash-report addresses, dist-cache keys). A comma-separated secret
 * (`dist_cache.auth.keys`) also gives each of its parts. Used to scrub anything that leaves the
 * process, such as crash reports.
 */
export function secretValues<T>(schema: TSchema, config: T): string[] {
  const out = new Set<string>();
  const walk = (s: TSchema, value: unknown): void => {
    const n = node(s);
    if (n['x-secret'] === true) {
      if (typeof value === 'string' && value.trim() !== '') {
        out.add(value);
        for (const part of value.split(',')) if (part.trim() !== '') out.add(part.trim());
      }
      return;
    }
    if (n.properties !== undefined && isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) if (n.properties[k] !== undefined) walk(n.properties[k], v);
    } else if (n.items !== undefined && Array.isArray(value)) {
      for (const item of value) walk(n.items as TSchema, item);
    }
  };
  walk(schema, config);
  // Longest first, so that a value containing another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}
