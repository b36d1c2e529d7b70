import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds (user + system) a process has used so far, from /proc/<pid>/stat;
 * undefined where /proc is not there. Resolution: one clock tick (10 ms).
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
