// What the real API server does with a custom resource's structural `openAPIV3Schema` on every
// write: prune fields the schema does not declare (unless `x-kubernetes-preserve-unknown-fields`),
// then validate (here with ajv; x-kubernetes-* keywords and unknown formats are ignored) and
// refuse with 422 Invalid naming each field as `spec.a[0].b`.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { invalid } from './api-error.js';
import type { KubeObject } from './store.js';
import type { ResourceType } from './resource-types.js';

type Schema = Record<string, unknown>;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Removes, in place, fields the schema does not declare. */
export function prune(value: unknown, schema: unknown): void {
  if (!isObject(schema)) return;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (Array.isArray(value)) {
    for (const el of value) prune(el, schema.items);
    return;
  }
  if (!isObject(value)) return;
  const props = isObject(schema.properties) ? schema.properties : undefined;
  const additional = schema.additionalProperties;
  for (const key of Object.keys(value)) {
    if (props && key in props) prune(value[key], props[key]);
    else if (isObject(additional)) prune(value[key], additional);
    else if (!preserve && additional !== true && (props !== undefined || schema.type === 'object')) delete value[key];
  }
}

function fieldOf(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  if (e.keyword === 'required') {
    const missing = String((e.params as { missingProperty?: string }).missingProperty ?? '');
    out = out === '' ? missing : `${out}.${missing}`;
  }
  return out === '' ? '<root>' : out;
}

function messageOf(e: ErrorObject, data: unknown): string {
  if (e.keyword === 'required') return 'Required value';
  const v = e.instancePath.split('/').slice(1).reduce<unknown>((cur, p) => (isObject(cur) || Array.isArray(cur) ? (cur as Record<string, unknown>)[p.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), data);
  const shown = JSON.stringify(v);
  return `Invalid value: ${shown === undefined ? 'null' : shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}: ${e.message ?? e.keyword}`;
}

/**
 * OpenAPI 3.0 to the JSON Schema ajv reads: boolean exclusiveMinimum/Maximum become numbers, and a
 * node with `x-kubernetes-int-or-string` (and no anyOf of its own) takes an integer or a string, as
 * the API server makes of it.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === 'enum' || k === 'default' || k === 'example' ? v : toJsonSchema(v);
  if (out['x-kubernetes-int-or-string'] === true && out.anyOf === undefined && out.type === undefined) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  for (const [ex, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[ex] !== 'boolean') continue;
    if (out[ex] === true && typeof out[bound] === 'number') {
      out[ex] = out[bound];
      delete out[bound];
    } else delete out[ex];
  }
  return out;
}

export class CrSchemas {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction | null>();

  private validator(t: ResourceType): ValidateFunction | null {
    const key = `${t.crd ?? ''}/${t.version}/${JSON.stringify(t.schema ?? null).length}`;
    let v = this.compiled.get(key);
    if (v === undefined) {
      try {
        v = t.schema && isObject(t.schema) ? this.ajv.compile(toJsonSchema(t.schema) as Schema) : null;
      } catch {
        v = null;
      }
      this.compiled.set(key, v);
    }
    return v;
  }

  /** Prunes `obj` in place and throws 422 Invalid when it breaks the version's schema. */
  admit(t: ResourceType, obj: KubeObject): void {
    if (t.builtIn || !t.schema) return;
    // apiVersion, kind and metadata are the server's, never pruned by the resource's schema.
    const props = isObject(t.schema) && isObject(t.schema.properties) ? t.schema.properties : {};
    const top = isObject(t.schema) && t.schema['x-kubernetes-preserve-unknown-fields'] === true;
    for (const key of Object.keys(obj)) {
      if (key === 'apiVersion' || key === 'kind' || key === 'metadata') continue;
      if (key in props) prune(obj[key], props[key]);
      else if (!top) delete obj[key];
    }
    const validate = this.validator(t);
    const data: unknown = obj;
    if (!validate || validate(data)) return;
    const causes = (validate.errors ?? []).filter((e) => !e.instancePath.startsWith('/metadata')).slice(0, 20).map((e) => ({ field: fieldOf(e), message: messageOf(e, obj) }));
    if (causes.length > 0) throw invalid(t.group, t.kind, obj.metadata.name, causes);
  }
}
