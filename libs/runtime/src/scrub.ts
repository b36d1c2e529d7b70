import { MASK } from '@sluice/config';

const MAX_DEPTH = 40;

/** `text` with every occurrence of each secret replaced by `****`. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s !== '' && out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

/**
 * A copy of `value` (a crash report, any JSON-like data) in which every string, and every
 * object key, has the secrets replaced by `****`. Secrets are matched as substrings, so a
 * password inside a URL or an error message goes too. Objects deeper than 40 levels are dropped.
 */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return scrubText(v, secrets);
    if (v === null || typeof v !== 'object') return v;
    if (depth > MAX_DEPTH) return undefined;
    const known = seen.get(v);
    if (known !== undefined) return known;
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      seen.set(v, arr);
      for (const item of v) arr.push(walk(item, depth + 1));
      return arr;
    }
    if (v instanceof Date) return v;
    const obj: Record<string, unknown> = {};
    seen.set(v, obj);
    for (const [k, item] of Object.entries(v)) obj[scrubText(k, secrets)] = walk(item, depth + 1);
    return obj;
  };
  return walk(value, 0) as T;
}
