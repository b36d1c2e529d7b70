import { indexPath, memberPath } from '@sluice/selectors';

// JSON paths are written the same way everywhere (the label filter's and the policy's problems).
export { indexPath, memberPath };

/** The path of a JSON pointer's segments under `root` (`/circuit/components/0` → `spec.circuit.components[0]`). */
export function pathOfSegments(root: string, segments: readonly string[]): string {
  let path = root;
  for (const s of segments) path = /^(0|[1-9][0-9]*)$/.test(s) ? indexPath(path, Number(s)) : memberPath(path, s);
  return path;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path of the first value nested deeper than `limit` under `root` (walked without recursion), or undefined. */
export function tooDeep(value: unknown, root: string, limit: number): string | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop() as [unknown, string, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limit) return path;
    if (Array.isArray(v)) v.forEach((item, i) => stack.push([item, indexPath(path, i), depth + 1]));
    else for (const [k, child] of Object.entries(v)) stack.push([child, memberPath(path, k), depth + 1]);
  }
  return undefined;
}
