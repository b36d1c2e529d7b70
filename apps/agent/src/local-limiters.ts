import { readFileSync } from 'node:fs';
import { applyLocalLimiters, loadLocalLimiters, type Engine } from '@sluice/flowcontrol';
import { SluiceError } from '@sluice/errors';

/** A local limiters file that cannot be used: a configuration problem, reported like one (exit 2). */
export class LocalLimitersFileError extends SluiceError {
  constructor(file: string, reason: string, cause: unknown) {
    super('SLUICE_ERR_LOCAL_LIMITERS_FILE', `--local-limiters ${file}: ${reason}`, { cause });
    this.name = 'LocalLimitersFileError';
  }
}

/**
 * Reads the local limiters file given with `--local-limiters` and registers
 * its rate limiters. A file that cannot be read or is invalid throws a
 * LocalLimitersFileError naming the file and every problem.
 */
export function installLocalLimiters(engine: Engine, file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new LocalLimitersFileError(file, (err as NodeJS.ErrnoException).code ?? (err as Error).message, err);
  }
  try {
    const specs = loadLocalLimiters(text);
    applyLocalLimiters(engine, specs);
    return specs.length;
  } catch (err) {
    throw new LocalLimitersFileError(file, err instanceof Error ? err.message : String(err), err);
  }
}
