const hasOwn = Object.prototype.hasOwnProperty;
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

// Parsing is the policy language's (the controller refuses what the agent cannot parse).
export { parseJsonPointer } from '@sluice/policies';

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
