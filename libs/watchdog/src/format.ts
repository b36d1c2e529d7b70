const MIB = 1024 * 1024;

export function mib(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / MIB).toFixed(1)} MiB` : 'none';
}
