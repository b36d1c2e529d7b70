import { readFileSync } from 'node:fs';
import { applyLocalLimiters, loadLocalLimiters, type Engine } from '@sluice/flowcontrol';

/**
 * Reads the local limiters file given with `--local-limiters` and registers
 * its rate limiters. A file that cannot be read or is invalid is a start-up
 * error naming the file and every problem.
 */
export function installLocalLimiters(engine: Engine, file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`--local-limiters ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  const specs = loadLocalLimiters(text);
  applyLocalLimiters(engine, specs);
  return specs.length;
}
