import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogConfig, LogWriterConfig } from '../config.js';

/** A temporary directory removed when the test ends. */
export function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-telemetry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function fileWriter(file: string, over: Partial<LogWriterConfig> = {}): LogWriterConfig {
  return { file, compress: false, max_age: 7, max_backups: 3, max_size: 50, ...over };
}

export function logConfig(over: Partial<LogConfig>): LogConfig {
  return { level: 'info', non_blocking: false, pretty_console: false, writers: [], ...over };
}

/** The JSON lines of a log file. */
export function readLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
