import type { AgentTapConfig } from '@sluice/config';
import type { CheckHttpDeps } from '@sluice/flowcontrol';
import type { ProcessRuntime } from '@sluice/runtime';
import { inProcessTapOptions, startInProcessTap, TapConfigError } from '@sluice/tap/in-process';
import type { Tap } from '@sluice/tap';

export interface InstalledTap {
  /** Why the tap could not start, when that is a configuration problem (exit 2). */
  problem(): TapConfigError | undefined;
}

/**
 * Wires the in-process tap (`tap.*`, docs/guides/tap.md) in the lifecycle: it starts after
 * the policies and stops before them, once the server has stopped taking work. Throws a
 * TapConfigError at once for an address the tap cannot use; a port it cannot bind is
 * found at start (`problem()`).
 */
export function installTap(runtime: ProcessRuntime, config: AgentTapConfig, decide: CheckHttpDeps): InstalledTap {
  // Addresses the tap cannot use are refused now, before anything binds a port.
  const options = inProcessTapOptions(config);
  if ('problems' in options) throw new TapConfigError(options.problems.join('; '));
  let tap: Tap | undefined;
  let problem: TapConfigError | undefined;
  runtime.lifecycle.add({
    name: 'tap',
    start: async () => {
      try {
        tap = await startInProcessTap(config, { decide, logger: runtime.logger, registry: runtime.registry });
      } catch (err) {
        if (err instanceof TapConfigError) problem = err;
        throw err;
      }
    },
    shutdown: async (opts) => { await tap?.shutdown(opts); },
  });
  return { problem: () => problem };
}
