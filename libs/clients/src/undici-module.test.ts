import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const index = fileURLToPath(new URL('./index.js', import.meta.url));

/** Imports this library in a fresh node, optionally makes an HTTP client, and says whether undici was loaded. */
function undiciLoaded(makeClient: boolean): boolean {
  const script = [
    `import { createRequire } from 'node:module';`,
    `const clients = await import(${JSON.stringify(index)});`,
    makeClient ? `await clients.createHttpClient(clients.DEFAULT_HTTP_CLIENT_CONFIG).close();` : '',
    `const cache = createRequire(import.meta.url).cache;`,
    `process.stdout.write(String(Object.keys(cache).some((k) => k.includes('/node_modules/undici/'))));`,
  ].join('\n');
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 }) === 'true';
}

test('importing the library does not load undici; making an HTTP client does', () => {
  assert.equal(undiciLoaded(false), false);
  assert.equal(undiciLoaded(true), true);
});
