import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/dist/support → ../../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A compiled server entry of the bench, e.g. `noop-check` → bench/dist/servers/noop-check.js. */
export function serverScript(name: string): string {
  return path.join(ROOT, 'bench', 'dist', 'servers', `${name}.js`);
}
