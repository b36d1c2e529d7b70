/**
 * Path templates of the `path_templates` extractor: `/foo` matches a segment
 * exactly, `/{param}` (or `/{}`) any one segment, a trailing `/*` any number
 * of further segments (0 or more). Parameters come after the static
 * segments, `*` last. Empty segments (`//`, a trailing `/`) are ignored, in
 * templates and in paths alike; the query is not part of the path.
 */
export interface PathTemplate {
  readonly prefix: readonly string[];
  readonly params: number;
  readonly wildcard: boolean;
}

/** The template, or the reason it is not one. */
export function parsePathTemplate(text: string): PathTemplate | string {
  const prefix: string[] = [];
  let params = 0;
  let wildcard = false;
  for (const segment of text.split('/')) {
    if (segment === '') continue;
    if (wildcard) return '`*` must be the last segment';
    if (segment === '*') wildcard = true;
    else if (segment.includes('{') || segment.includes('}')) {
      if (!/^\{[^{}]*\}$/.test(segment)) return `a parameter covers a whole segment: ${JSON.stringify(segment)}`;
      params++;
    } else {
      if (params > 0) return 'parameters must come after the static segments';
      prefix.push(segment);
    }
  }
  return { prefix, params, wildcard };
}

/** Whether `a` is more specific than `b`: more static segments, then more parameters, then no wildcard. */
function moreSpecific(a: PathTemplate, b: PathTemplate): boolean {
  if (a.prefix.length !== b.prefix.length) return a.prefix.length > b.prefix.length;
  if (a.params !== b.params) return a.params > b.params;
  return !a.wildcard && b.wildcard;
}

function canonical(t: PathTemplate): string {
  return `/${[...t.prefix, ...Array<string>(t.params).fill('{}')].join('/')}${t.wildcard ? '/*' : ''}`;
}

/** Templates in the order they are tried: the most specific first, ties by their canonical text. */
export function orderPathTemplates<T extends { template: PathTemplate }>(entries: readonly T[]): T[] {
  return [...entries].sort((x, y) => {
    if (moreSpecific(x.template, y.template)) return -1;
    if (moreSpecific(y.template, x.template)) return 1;
    const a = canonical(x.template);
    const b = canonical(y.template);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** The segments of a request path (`/a//b/?q` → `['a', 'b']`). */
export function pathSegments(path: string): string[] {
  const q = path.indexOf('?');
  return (q < 0 ? path : path.slice(0, q)).split('/').filter((s) => s !== '');
}

/** Whether a path's segments match a template. */
export function matchesPathTemplate(t: PathTemplate, segments: readonly string[]): boolean {
  const n = t.prefix.length + t.params;
  if (t.wildcard ? segments.length < n : segments.length !== n) return false;
  for (let i = 0; i < t.prefix.length; i++) if (segments[i] !== t.prefix[i]) return false;
  return true;
}
