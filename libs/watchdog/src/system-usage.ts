import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { MemoryUsage } from './usage.js';

function field(meminfo: string, name: string): number | undefined {
  const m = new RegExp(`^${name}:\\s+(\\d+)\\s*kB$`, 'm').exec(meminfo);
  return m === null ? undefined : Number(m[1]) * 1024;
}

/**
 * Machine memory: used = MemTotal − MemAvailable from `/proc/meminfo`
 * (what the kernel could hand out without swapping); where that file or field
 * is missing, os.totalmem() − os.freemem().
 */
export async function readSystemUsage(meminfoPath = '/proc/meminfo'): Promise<MemoryUsage> {
  let text: string | undefined;
  try {
    text = await readFile(meminfoPath, 'utf8');
  } catch {
    text = undefined;
  }
  const total = text === undefined ? undefined : field(text, 'MemTotal');
  const available = text === undefined ? undefined : field(text, 'MemAvailable');
  if (total !== undefined && available !== undefined) return { used: total - available, limit: total, source: '/proc/meminfo' };
  return { used: os.totalmem() - os.freemem(), limit: os.totalmem(), source: 'os' };
}
