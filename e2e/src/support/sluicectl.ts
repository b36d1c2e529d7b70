import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes.js';

export const SLUICECTL_BIN = join(ROOT, 'bin', 'sluicectl');

/** What a run of sluicectl gave: its exit code (-1: killed, or it did not start), stdout and stderr. */
export interface SluicectlRun { code: number; out: string; err: string }

/** Runs the built sluicectl with `env` over a bare PATH (no other environment), bounded to 60 s. */
export function sluicectl(args: string[], env: Record<string, string> = {}): Promise<SluicectlRun> {
  return new Promise((resolve) => {
    execFile(SLUICECTL_BIN, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 60_000 }, (err, out, errText) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1;
      resolve({ code, out, err: errText });
    });
  });
}
