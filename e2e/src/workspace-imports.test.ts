// Every workspace declares what its sources import: each bare specifier in a workspace's src
// (static, dynamic, `require`, `import type`, re-exports) names a package in that workspace's
// package.json: `dependencies` for the code the workspace ships, `devDependencies` too for its
// tests and test helpers. A package that resolves only because npm hoisted it for another
// workspace fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './support/processes.js';

interface Manifest { name: string; workspaces?: string[]; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string> }
const BUILTIN = new Set(builtinModules);
const SPECIFIER = new RegExp([
  /^(?:import|export)\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\}|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+[\w$]+))?)\s+from\s*['"]([^'"]+)['"]/.source,
  /^import\s*['"]([^'"]+)['"]/.source,
  // The sources quote with ' (the lint rule); "…" here is Lua or shell inside a string.
  /\bimport\(\s*'([^']+)'\s*\)/.source,
  /\brequire(?:\.resolve)?\(\s*'([^']+)'\s*\)/.source,
].join('|'), 'gm');
/** Sources that only tests load. */
const TEST_ONLY = /(?:\.test\.ts$|\/test-support[^/]*\.ts$|\/testing\/|\/testdata\/|\/fixture[^/]*\.ts$|\/test-fixtures\.ts$|\/testing\.ts$|\/support\/)/;

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
const packageName = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

function workspaces(): string[] {
  const out: string[] = [];
  for (const pattern of manifest('.').workspaces ?? []) {
    if (!pattern.endsWith('/*')) { out.push(pattern); continue; }
    const top = pattern.slice(0, -2);
    for (const name of readdirSync(join(ROOT, top)).sort()) if (statSync(join(ROOT, top, name, 'package.json'), { throwIfNoEntry: false })) out.push(`${top}/${name}`);
  }
  return out;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** `ws: package (file)` for every bare import of a workspace's src the workspace does not declare. */
function undeclared(ws: string, m: Manifest = manifest(ws)): string[] {
  const shipped = new Set([m.name, ...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})]);
  const forTests = new Set([...shipped, ...Object.keys(m.devDependencies ?? {})]);
  const missing: string[] = [];
  for (const file of sources(join(ROOT, ws, 'src'))) {
    const rel = relative(ROOT, file);
    const declared = TEST_ONLY.test(rel) ? forTests : shipped;
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const spec = match.slice(1).find((s) => s !== undefined) ?? '';
      if (spec.startsWith('.') || spec.startsWith('node:') || BUILTIN.has(packageName(spec))) continue;
      if (!declared.has(packageName(spec))) missing.push(`${ws}: ${packageName(spec)} (${rel})`);
    }
  }
  return [...new Set(missing)];
}

test('every bare import in a workspace\'s src is declared in that workspace\'s package.json', () => {
  const all = workspaces();
  assert.ok(all.includes('libs/server') && all.includes('apps/agent'), all.join(', '));
  assert.deepEqual(all.flatMap((ws) => undeclared(ws)), []);
});

test('the check reports what a workspace imports but does not declare, tests against devDependencies', () => {
  const server = manifest('libs/server');
  const bare = undeclared('libs/server', { name: server.name });
  assert.ok(bare.some((l) => l.startsWith('libs/server: @grpc/grpc-js (libs/server/src/')), bare.join('\n'));
  assert.ok(bare.some((l) => l.startsWith('libs/server: express (')), bare.join('\n'));
  // fast-check is a devDependency of libs/selectors: declared for its tests, not for what it ships.
  const selectors = manifest('libs/selectors');
  assert.deepEqual(undeclared('libs/selectors', selectors), []);
  const asShipped = undeclared('libs/selectors', { ...selectors, devDependencies: {} });
  assert.ok(asShipped.length > 0 && asShipped.every((l) => l.startsWith('libs/selectors: fast-check (') && l.includes('.test.ts')), asShipped.join('\n'));
});
