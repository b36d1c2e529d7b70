import type { TSchema } from '@sinclair/typebox';
import { PolicySpecSchema } from './schema/policy.js';
import type { PolicyProblem } from './problems.js';
import { indexPath, isJsonObject, memberPath } from './path.js';

interface Node {
  properties?: Record<string, TSchema>;
  additionalProperties?: TSchema | boolean;
  items?: TSchema;
  'x-sluice-unsupported'?: boolean;
  'x-sluice-ignored'?: boolean;
}

/**
 * Walks a spec beside the schema and reports the Aperture members Sluice
 * refuses by name (`x-sluice-unsupported`) and those it ignores
 * (`x-sluice-ignored`). Works on any input: parts of the wrong shape are
 * skipped (the schema reports them).
 */
export function findMarked(spec: unknown): { unsupported: PolicyProblem[]; ignored: string[] } {
  const unsupported: PolicyProblem[] = [];
  const ignored: string[] = [];
  const walk = (value: unknown, schema: TSchema | boolean | undefined, path: string, name: string): void => {
    if (schema === undefined || typeof schema === 'boolean') return;
    const n = schema as Node;
    if (n['x-sluice-unsupported'] === true) {
      unsupported.push({ path, message: `${name} is an Aperture feature that Sluice does not support; remove it or use a supported component (docs/policies.md)` });
      return;
    }
    if (n['x-sluice-ignored'] === true) {
      ignored.push(path);
      return;
    }
    if (Array.isArray(value)) {
      if (n.items !== undefined) value.forEach((item, i) => walk(item, n.items, indexPath(path, i), ''));
      return;
    }
    if (!isJsonObject(value)) return;
    for (const key of Object.keys(value)) {
      const own = n.properties !== undefined && Object.hasOwn(n.properties, key);
      // Names restart below list items and map values: `flow_control.quota_scheduler`, `extractor.jwt`.
      const childName = !own ? '' : name === '' ? key : `${name}.${key}`;
      walk(value[key], own ? n.properties?.[key] : n.additionalProperties, memberPath(path, key), childName);
    }
  };
  walk(spec, PolicySpecSchema, 'spec', '');
  return { unsupported, ignored };
}
