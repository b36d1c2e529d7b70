// The three patch types the API server takes with PATCH: JSON patch (RFC 6902, applied with
// fast-json-patch), JSON merge patch (RFC 7386, hand-written: a dozen lines), and strategic merge
// patch for built-in kinds (the common subset: maps merge, `null` deletes, lists replace except
// those with a known merge key, which merge element by element; `$patch: replace|delete`,
// `$setElementOrder/...`, `$retainKeys` and `$deleteFromPrimitiveList/...` are understood or dropped).
import fjp from 'fast-json-patch';
import { ApiError, badRequest } from './api-error.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export function jsonPatch(target: Json, patch: unknown): Json {
  if (!Array.isArray(patch)) throw badRequest('json patch must be a JSON array of operations');
  try {
    const doc = structuredClone(target);
    const res = fjp.applyPatch(doc, patch as fjp.Operation[], true, true, true);
    return res.newDocument as Json;
  } catch (err) {
    throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${(err as Error).message}`);
  }
}

/** Merge keys of lists in built-in kinds, by field name. `ports` is keyed by containerPort in pods, by port in services. */
const MERGE_KEYS: Record<string, string | ((el: JsonObject) => string)> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  conditions: 'type',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  ownerReferences: 'uid',
  webhooks: 'name',
  finalizers: '',
  ports: (el) => ('containerPort' in el ? 'containerPort' : 'port'),
};

function mergeList(field: string, target: Json[] | undefined, patch: Json[]): Json[] {
  const rule = MERGE_KEYS[field];
  if (rule === undefined) return patch.filter((el) => !(isObject(el) && '$patch' in el));
  if (rule === '') {
    // A set of primitives (finalizers): union, keeping order.
    const out = [...(target ?? [])];
    for (const el of patch) if (!out.some((x) => JSON.stringify(x) === JSON.stringify(el))) out.push(el);
    return out;
  }
  const out: Json[] = [...(target ?? [])];
  for (const el of patch) {
    if (!isObject(el)) {
      out.push(el);
      continue;
    }
    if (el.$patch === 'replace') return patch.filter((x) => !(isObject(x) && x.$patch === 'replace'));
    const key = typeof rule === 'function' ? rule(el) : rule;
    const idx = out.findIndex((x) => isObject(x) && x[key] === el[key]);
    if (el.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = strategicMergePatch(out[idx], el);
    else out.push(strategicMergePatch(undefined, el));
  }
  return out;
}

export function strategicMergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  if (patch.$patch === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return strategicMergePatch(undefined, rest);
  }
  if (patch.$patch === 'delete') return null;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$setElementOrder/') || k === '$retainKeys' || k === '$patch') continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[field];
      if (Array.isArray(cur) && Array.isArray(v)) out[field] = cur.filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) delete out[k];
    else if (Array.isArray(v)) out[k] = mergeList(k, Array.isArray(out[k]) ? (out[k] as Json[]) : undefined, v);
    else if (isObject(v)) {
      const merged = strategicMergePatch(out[k], v);
      if (merged === null) delete out[k];
      else out[k] = merged;
    } else out[k] = v;
  }
  return out;
}

/** Applies a PATCH body of `contentType` to `target`. Strategic merge patch is refused for custom resources, as the real server does. */
export function applyPatch(contentType: string, target: Json, body: Buffer, builtIn: boolean): Json {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === APPLY_PATCH) throw new ApiError(415, 'UnsupportedMediaType', 'server-side apply is not supported by the test API server');
  let patch: unknown;
  try {
    patch = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
  switch (type) {
    case MERGE_PATCH:
      return mergePatch(target, patch as Json);
    case JSON_PATCH:
      return jsonPatch(target, patch);
    case STRATEGIC_MERGE_PATCH:
      if (!builtIn) throw new ApiError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
      return strategicMergePatch(target, patch as Json);
    default:
      throw new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${JSON_PATCH}, ${MERGE_PATCH}${builtIn ? `, ${STRATEGIC_MERGE_PATCH}` : ''}`);
  }
}
