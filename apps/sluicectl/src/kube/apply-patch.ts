// kubectl apply's bookkeeping for a custom resource: the configuration last applied is kept in an
// annotation, and an update is a JSON merge patch from it to the new one (fields applied before
// and no longer given are removed; fields others set are left alone).

/** The annotation kubectl apply keeps the applied configuration in. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON merge patch (RFC 7386) taking a live object from `last` (what was applied before; undefined
 * when it was not applied this way) to `next`: every field of `next` set, every field of `last`
 * that `next` lacks set to null. Lists are replaced whole, as merge patches do.
 */
export function applyPatch(last: Json, next: Record<string, Json>): Record<string, Json> {
  const patch: Record<string, Json> = {};
  const before = isObject(last) ? last : {};
  for (const [k, v] of Object.entries(next)) {
    const prev = before[k];
    if (isObject(v) && isObject(prev)) {
      patch[k] = applyPatch(prev, v);
    } else {
      patch[k] = v;
    }
  }
  for (const k of Object.keys(before)) if (!(k in next)) patch[k] = null;
  return patch;
}

/** The object to apply, with its own configuration in the last-applied annotation (as kubectl writes it). */
export function withLastApplied(obj: Record<string, Json> & { metadata: Record<string, Json> }): Record<string, Json> {
  const annotations = { ...(isObject(obj.metadata.annotations) ? obj.metadata.annotations : {}) } as Record<string, Json>;
  delete annotations[LAST_APPLIED];
  const applied = { ...obj, metadata: { ...obj.metadata, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) } };
  if (Object.keys(annotations).length === 0) delete (applied.metadata as Record<string, Json>).annotations;
  return { ...applied, metadata: { ...applied.metadata, annotations: { ...annotations, [LAST_APPLIED]: `${JSON.stringify(applied)}\n` } } };
}
