/**
 * The one line per bench that scripts/run-bench.mjs collects for its summary:
 * `RESULT <bench> key=value ...` (values without spaces).
 */
export function printResult(bench: string, values: Record<string, string | number>): void {
  const pairs = Object.entries(values).map(([k, v]) => `${k}=${String(v).replace(/\s+/g, '_')}`);
  console.log(`RESULT ${bench} ${pairs.join(' ')}`);
}
