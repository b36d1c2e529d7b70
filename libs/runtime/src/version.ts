import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The version of Sluice this process runs (the `version` of the runtime's package.json). */
export function sluiceVersion(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      cached = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      cached = 'unknown';
    }
  }
  return cached;
}
