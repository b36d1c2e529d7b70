import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const index = fileURLToPath(new URL('../index.js', import.meta.url));

/** Imports the library in a fresh node, optionally makes the profilers' router, and says whether @datadog/pprof was loaded. */
function pprofLoaded(routes: boolean | undefined): boolean {
  const script = [
    `import { createRequire } from 'node:module';`,
    `const telemetry = await import(${JSON.stringify(index)});`,
    routes === undefined ? '' : `telemetry.profilersRouter({ register_http_routes: ${routes}, cpu_profiler: false, profiles_path: 'default' });`,
    `const cache = createRequire(import.meta.url).cache;`,
    `process.stdout.write(String(Object.keys(cache).some((k) => k.includes('/@datadog/pprof/'))));`,
  ].join('\n');
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 }) === 'true';
}

test('@datadog/pprof is loaded when the profiling routes are made, not when the library is imported', () => {
  assert.equal(pprofLoaded(undefined), false);
  assert.equal(pprofLoaded(false), false);
  assert.equal(pprofLoaded(true), true);
});
