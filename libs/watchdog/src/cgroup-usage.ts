import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MemoryUsage } from './usage.js';

/** cgroup v1 reports "no limit" as a page-rounded 2^63−1; anything this large is no limit. */
const V1_UNLIMITED = 2 ** 60;

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function bytes(text: string, file: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`unexpected content in ${file}: ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text);
}

/**
 * The memory controller of this process's cgroup: v2 (`memory.current`,
 * `memory.max`, where `max` means no limit) under `root`, else v1
 * (`memory/memory.usage_in_bytes`, `memory/memory.limit_in_bytes`).
 * Undefined when neither exists. No limit is reported as Infinity.
 */
export async function readCgroupUsage(root = '/sys/fs/cgroup'): Promise<MemoryUsage | undefined> {
  const v2Current = path.join(root, 'memory.current');
  const current = await readOptional(v2Current);
  if (current !== undefined) {
    const v2Max = path.join(root, 'memory.max');
    const max = (await readOptional(v2Max)) ?? 'max';
    return { used: bytes(current, v2Current), limit: max === 'max' ? Infinity : bytes(max, v2Max), source: 'cgroup v2' };
  }
  const v1Usage = path.join(root, 'memory', 'memory.usage_in_bytes');
  const usage = await readOptional(v1Usage);
  if (usage === undefined) return undefined;
  const v1Limit = path.join(root, 'memory', 'memory.limit_in_bytes');
  const limitText = await readOptional(v1Limit);
  const limit = limitText === undefined ? Infinity : bytes(limitText, v1Limit);
  return { used: bytes(usage, v1Usage), limit: limit >= V1_UNLIMITED ? Infinity : limit, source: 'cgroup v1' };
}
