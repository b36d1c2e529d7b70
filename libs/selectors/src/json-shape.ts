import { InvalidArgumentError } from '@sluice/errors';
import { memberPath } from './json-path.js';

/** A JSON object as it arrives from a parsed body: string keys, unknown values. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** A short name of a JSON value's type, for error messages. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Prefix a message with the path it concerns (when there is one). */
export function fail(path: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError(path === '' ? message : `${path}: ${message}`, path);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` must be a JSON object; `what` names it in the message. */
export function expectObject(value: unknown, path: string, what: string): JsonObject {
  if (!isJsonObject(value)) throw fail(path, `${what} must be an object, got ${jsonTypeName(value)}`);
  return value;
}

/**
 * Own keys of `obj`, each checked against `allowed` (a Set, so names such as
 * `constructor` are never found on a prototype). An unknown key is refused
 * at its own path.
 */
export function checkedKeys(obj: JsonObject, allowed: ReadonlySet<string>, path: string, what: string): string[] {
  const keys = Object.keys(obj);
  for (const key of keys) {
    if (!allowed.has(key)) {
      throw fail(memberPath(path, key), `unknown member "${key}" in ${what}; allowed: ${[...allowed].join(', ')}`);
    }
  }
  return keys;
}

/** An own member of `obj`, or undefined when absent. */
export function member(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** A required string member that must not be empty. */
export function requiredName(obj: JsonObject, key: string, path: string, what: string): string {
  const at = memberPath(path, key);
  const value = member(obj, key);
  if (value === undefined) throw fail(at, `${what} is required`);
  if (typeof value !== 'string') throw fail(at, `${what} must be a string, got ${jsonTypeName(value)}`);
  if (value === '') throw fail(at, `${what} must not be empty`);
  return value;
}
