import { createRequire } from 'node:module';
import type * as Pprof from '@datadog/pprof';

let loaded: typeof Pprof | undefined;

/**
 * @datadog/pprof, loaded at the first profile taken rather than at start-up: a process that is
 * never profiled does not carry its native addon and modules (~0.5 MB of heap, ~1.4 MB RSS).
 */
export function pprof(): typeof Pprof {
  loaded ??= createRequire(import.meta.url)('@datadog/pprof') as typeof Pprof;
  return loaded;
}
