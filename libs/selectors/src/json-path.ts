const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The JSON path of member `key` of the value at `parent`: `parent.key`, or
 * `parent["odd key"]` when the key is not a plain identifier (label names
 * such as `app.kubernetes.io/name`), so every path reads back unambiguously.
 */
export function memberPath(parent: string, key: string): string {
  if (IDENTIFIER.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** The JSON path of element `index` of the array at `parent`: `parent[index]`. */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
