/**
 * JSON Merge Patch (RFC 7396): objects merge key by key, `null` removes a key,
 * anything else (arrays included) replaces. Written here because the installed
 * fast-json-patch implements JSON Patch (RFC 6902), not merge patch. The target
 * is not modified; keys named like Object members are plain data keys.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (isPlainObject(target)) for (const [k, v] of Object.entries(target)) out[k] = v;
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return toPlain(out);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A null-prototype map back into a plain object, own keys defined (never through a setter such as __proto__). */
function toPlain(o: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) Object.defineProperty(plain, k, { value: v, enumerable: true, writable: true, configurable: true });
  return plain;
}
