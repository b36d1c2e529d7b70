import { createRequire } from 'node:module';
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/**
 * undici, loaded at the first HTTP client made rather than when this library is imported: a
 * process that makes none (the agent, which imports this library for its backoff and TLS files)
 * does not carry its ~3.4 MB of heap. The same module instance as an `import 'undici'` elsewhere.
 */
export function undici(): typeof Undici {
  loaded ??= createRequire(import.meta.url)('undici') as typeof Undici;
  return loaded;
}
