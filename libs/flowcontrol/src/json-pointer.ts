const hasOwn = Object.prototype.hasOwnProperty;
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * Parse an RFC 6901 JSON pointer (`""` or `/a/b~1c`) into its reference
 * tokens; undefined when it is not one (it must be empty or start with `/`,
 * and `~` must be followed by 0 or 1).
 */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer.charCodeAt(0) !== 0x2f /* / */) return undefined;
  const tokens = pointer.slice(1).split('/');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (/~[^01]|~$/.test(t)) return undefined;
    tokens[i] = t.replaceAll('~1', '/').replaceAll('~0', '~');
  }
  return tokens;
}

/**
 * The value `tokens` points at in a parsed JSON document: own members of
 * objects, canonical indices of arrays; undefined when there is nothing
 * there. (Written here rather than taken from fast-json-patch, whose getter
 * walks inherited members such as `__proto__` and `constructor`.)
 */
export function resolveJsonPointer(doc: unknown, tokens: readonly string[]): unknown {
  let node: unknown = doc;
  for (const t of tokens) {
    if (Array.isArray(node)) {
      if (!ARRAY_INDEX.test(t)) return undefined;
      const i = Number(t);
      if (i >= node.length) return undefined;
      node = node[i];
    } else if (typeof node === 'object' && node !== null) {
      if (!hasOwn.call(node, t)) return undefined;
      node = (node as Record<string, unknown>)[t];
    } else {
      return undefined;
    }
  }
  return node;
}
