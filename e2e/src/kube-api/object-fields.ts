// Small helpers on Kubernetes objects and their fields for the test API server.
import { badRequest } from './api-error.js';
import { apiVersionOf, type ResourceType } from './resource-types.js';
import type { KubeObject } from './store.js';

export function grOf(t: { group: string; resource: string }): string {
  return `${t.group}/${t.resource}`;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Everything of an object except metadata and status (what bumps metadata.generation). */
export function specPart(obj: KubeObject, withStatus: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (k !== 'metadata' && k !== 'apiVersion' && k !== 'kind' && (withStatus || k !== 'status')) out[k] = v;
  return out;
}

export function metaForCompare(obj: KubeObject): Record<string, unknown> {
  const { resourceVersion: _rv, managedFields: _mf, ...rest } = obj.metadata;
  return rest;
}

export function setPath(obj: KubeObject, path: string, value: unknown): void {
  const parts = path.split('.').filter((p) => p !== '');
  let cur: Record<string, unknown> = obj as unknown as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) {
    if (!isObject(cur[p])) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

export function parseRv(s: string): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(n)) throw badRequest(`invalid resource version: "${s}"`);
  return n;
}

/** RFC 3339 with seconds, as Kubernetes writes timestamps. */
export function nowRfc3339(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The object as served: apiVersion and kind of the requested version. */
export function asServed(type: ResourceType, obj: KubeObject): KubeObject {
  return { ...obj, apiVersion: apiVersionOf(type), kind: type.kind };
}

/** A body's kind and apiVersion, when given, must be those of the resource it is sent to. */
export function checkKind(type: ResourceType, obj: Record<string, unknown>): void {
  if (obj.kind !== undefined && obj.kind !== type.kind) throw badRequest(`the kind "${String(obj.kind)}" of the object does not match the resource (expected ${type.kind})`);
  if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersionOf(type)) throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(type)})`);
}
