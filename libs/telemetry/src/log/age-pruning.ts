import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const DAY_MS = 24 * 60 * 60 * 1000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Matches the rotated copies of `<stem><ext>`: `<stem>-<UTC timestamp>[.<n>]<ext>[.gz]`,
 * capturing the timestamp (2024-01-02T15-04-05.123Z).
 */
export function backupNamePattern(stem: string, ext: string): RegExp {
  return new RegExp(
    `^${escapeRegExp(stem)}-(\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.\\d{3}Z)(?:\\.\\d+)?${escapeRegExp(ext)}(?:\\.gz)?$`,
  );
}

/** The time encoded in a rotated file's name, or undefined when it has none. */
export function backupTime(name: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(name);
  if (match === null) return undefined;
  const iso = match[1].replace(/T(\d{2})-(\d{2})-(\d{2})/, 'T$1:$2:$3');
  const time = Date.parse(iso);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * Deletes the rotated copies older than `maxAgeDays` (by the time in their
 * name, as lumberjack does). 0 keeps every file. Returns the removed paths.
 */
export async function pruneOldBackups(
  dir: string,
  stem: string,
  ext: string,
  maxAgeDays: number,
  now: number = Date.now(),
): Promise<string[]> {
  if (maxAgeDays <= 0) return [];
  const pattern = backupNamePattern(stem, ext);
  const cutoff = now - maxAgeDays * DAY_MS;
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return removed;
    throw err;
  }
  for (const name of names) {
    const time = backupTime(name, pattern);
    if (time !== undefined && time < cutoff) {
      const path = join(dir, name);
      try {
        await unlink(path);
        removed.push(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
  return removed;
}
