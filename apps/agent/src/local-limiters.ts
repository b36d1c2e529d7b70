import { readFileSync } from 'node:fs';
import { applyLocalLimiters, loadLocalLimiters, rateLimiterMetrics, type Engine } from '@sluice/flowcontrol';
import { SluiceError, ErrorCode } from '@sluice/errors';

/** A local limiters file that cannot be used: a configuration problem, reported like one (exit 2). */
export class LocalLimitersFileError extends SluiceError {
  constructor(file: string, reason: string, cause: unknown) {
    super(ErrorCode.LOCAL_LIMITERS_FILE, `--local-limiters ${file}: ${reason}`, { cause });
    this.name = 'LocalLimitersFileError';
  }
}

/** What installing the local limiters needs from the process (both optional, for tests). */
export interface LocalLimitersDeps {
  /** Where the warning about a file without limiters goes; without it, a process warning on stderr. */
  logger?: { warn(message: string, meta?: Record<string, unknown>): void };
  /** Gets `sluice_rate_limiter_bucket_evictions_total`. */
  registry?: Parameters<typeof rateLimiterMetrics>[0];
}

/** The warning logged when the file given holds no limiter. */
export const EMPTY_LIMITERS_WARNING = 'local limiters file holds no rate limiter: nothing is limited';

/**
 * Reads the local limiters file given with `--local-limiters` and registers
 * its rate limiters. A file that cannot be read or is invalid throws a
 * LocalLimitersFileError naming the file and every problem; a file with no
 * limiter (empty, or only comments) starts the agent with a warning naming it.
 */
export function installLocalLimiters(engine: Engine, file: string, deps: LocalLimitersDeps = {}): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new LocalLimitersFileError(file, (err as NodeJS.ErrnoException).code ?? (err as Error).message, err);
  }
  try {
    const specs = loadLocalLimiters(text);
    applyLocalLimiters(engine, specs, deps.registry !== undefined ? { metrics: rateLimiterMetrics(deps.registry) } : {});
    if (specs.length === 0) {
      if (deps.logger !== undefined) deps.logger.warn(EMPTY_LIMITERS_WARNING, { file });
      else process.emitWarning(`--local-limiters ${file}: ${EMPTY_LIMITERS_WARNING}`, 'SluiceWarning');
    }
    return specs.length;
  } catch (err) {
    throw new LocalLimitersFileError(file, err instanceof Error ? err.message : String(err), err);
  }
}
