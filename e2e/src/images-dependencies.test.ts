// Each image holds only what its app's workspaces declare (npm ci --omit=dev --workspace apps/<app>):
// every package a compiled module loaded from an app's main imports, statically, dynamically or through
// createRequire, is declared in the dependencies of the workspace that module belongs to.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './support/processes.js';

interface Manifest { name: string; dependencies?: Record<string, string>; exports?: Record<string, string | { default: string }> }
const BUILTIN = new Set(builtinModules);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\(\s*|\)\(\s*|^import\s+)['"]([^'"]+)['"]/gm;

const manifest = (ws: string): Manifest => JSON.parse(readFileSync(join(ROOT, ws, 'package.json'), 'utf8')) as Manifest;
const workspaceOf = (file: string): string => relative(ROOT, file).split('/').slice(0, 2).join('/');
const packageName = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** A @sluice/<name>[/sub] specifier to its compiled file, through the workspace's exports. */
function resolveWorkspace(spec: string): string {
  const name = packageName(spec);
  const ws = ['libs', 'apps'].map((top) => `${top}/${name.slice('@sluice/'.length)}`).find((w) => existsSync(join(ROOT, w, 'package.json')) && manifest(w).name === name);
  assert.ok(ws !== undefined, `workspace of ${spec}`);
  const entry = manifest(ws).exports?.[`.${spec.slice(name.length)}`];
  assert.ok(entry !== undefined, `${spec} is exported`);
  return join(ROOT, ws, typeof entry === 'string' ? entry : entry.default);
}

/** External packages each workspace's modules import, from `main` on: workspace → package → importing file. */
function importsFrom(main: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const seen = new Set<string>();
  const queue = [main];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (spec.startsWith('node:') || BUILTIN.has(packageName(spec))) continue;
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec));
      else if (spec.startsWith('@sluice/')) queue.push(resolveWorkspace(spec));
      else {
        const ws = workspaceOf(file);
        if (!out.has(ws)) out.set(ws, new Map());
        out.get(ws)?.set(packageName(spec), relative(ROOT, file));
      }
    }
  }
  return out;
}

for (const app of ['agent', 'controller', 'tap']) {
  test(`images: every package the ${app} loads is declared by the workspace that imports it`, () => {
    const used = importsFrom(join(ROOT, 'apps', app, 'dist', 'main.js'));
    assert.ok(used.size > 0);
    const undeclared: string[] = [];
    for (const [ws, packages] of used) {
      const declared = new Set(Object.keys(manifest(ws).dependencies ?? {}));
      for (const [name, file] of packages) if (!declared.has(name)) undeclared.push(`${ws}: ${name} (${file})`);
    }
    assert.deepEqual(undeclared, []);
  });
}
