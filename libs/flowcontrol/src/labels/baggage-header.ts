import { HEADER_LABEL_PREFIX } from './http-labels.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The `baggage` header to send on with the request: the one it came with,
 * plus the labels the classifiers added (URL-escaped values; keys that are
 * not baggage tokens, header labels, and `hidden` labels (rules with
 * `telemetry: false`) left out).
 */
export function baggageWith(
  existing: string | undefined,
  added: Readonly<Record<string, string>>,
  hidden?: ReadonlySet<string>,
): string | undefined {
  const parts: string[] = [];
  for (const key of Object.keys(added)) {
    if (!TOKEN.test(key) || key.startsWith(HEADER_LABEL_PREFIX) || hidden?.has(key) === true) continue;
    parts.push(`${key}=${encodeURIComponent(added[key])}`);
  }
  if (parts.length === 0) return undefined;
  const tail = parts.join(',');
  return existing !== undefined && existing.trim() !== '' ? `${existing},${tail}` : tail;
}
