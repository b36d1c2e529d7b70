import type { TSchema } from '@sinclair/typebox';
import { node } from './keys.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets an own property, even for names such as `__proto__` that a plain
 * assignment would turn into a prototype change, so such a key stays visible
 * to validation (which reports it as unknown).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Fills every missing key with its default, recursively, including the
 * elements of lists of objects. Values of the wrong shape are left alone for
 * validation to report. `null` counts as not set, except inside lists.
 */
export function applyDefaults(schema: TSchema, value: unknown): unknown {
  const n = node(schema);
  if (n.properties !== undefined) {
    if (value !== undefined && value !== null && !isPlainObject(value)) return value;
    const input = isPlainObject(value) ? value : {};
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(n.properties)) {
      const filled = applyDefaults(child, input[name]);
      if (filled !== undefined) out[name] = filled;
    }
    for (const [name, v] of Object.entries(input)) {
      if (!Object.hasOwn(n.properties, name)) setOwn(out, name, v);
    }
    return out;
  }
  if (value === undefined || value === null) {
    return n.default === undefined ? undefined : structuredClone(n.default);
  }
  if (n.items !== undefined && Array.isArray(value) && node(n.items).properties !== undefined) {
    return value.map((item) => (item === null ? null : applyDefaults(n.items as TSchema, item)));
  }
  return value;
}

/** The configuration made of defaults only. */
export function defaultsOf(schema: TSchema): Record<string, unknown> {
  return applyDefaults(schema, undefined) as Record<string, unknown>;
}
