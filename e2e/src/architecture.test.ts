// The layering of the libraries as docs/architecture.md draws it: every library on its floor (one above
// the highest library it imports), no cycles, no library importing an app, and the page naming each one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT as repoRoot } from './support/processes.js';

const libsDir = join(repoRoot, 'libs');
const appsDir = join(repoRoot, 'apps');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'generated') sources(path, out);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

function packageName(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name;
}

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](@sluice\/[a-z-]+)/g;

/** The @sluice packages each library's sources import, by library folder name. */
function libraryImports(): Map<string, Set<string>> {
  const byName = new Map<string, string>();
  for (const lib of readdirSync(libsDir)) byName.set(packageName(join(libsDir, lib)), lib);
  const apps = new Set(readdirSync(appsDir).map((app) => packageName(join(appsDir, app))));
  const imports = new Map<string, Set<string>>();
  for (const lib of readdirSync(libsDir)) {
    const own = new Set<string>();
    for (const file of sources(join(libsDir, lib, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const pkg = match[1] as string;
        assert.ok(!apps.has(pkg), `${file} imports the app ${pkg}`);
        const target = byName.get(pkg);
        assert.ok(target !== undefined, `${file} imports ${pkg}, which is no library`);
        if (target !== lib) own.add(target);
      }
    }
    imports.set(lib, own);
  }
  return imports;
}

function floors(imports: Map<string, Set<string>>): Map<string, number> {
  const floor = new Map<string, number>();
  const visiting: string[] = [];
  const visit = (lib: string): number => {
    const known = floor.get(lib);
    if (known !== undefined) return known;
    assert.ok(!visiting.includes(lib), `import cycle: ${[...visiting.slice(visiting.indexOf(lib)), lib].join(' → ')}`);
    visiting.push(lib);
    let f = 0;
    for (const dep of imports.get(lib) ?? []) f = Math.max(f, visit(dep) + 1);
    visiting.pop();
    floor.set(lib, f);
    return f;
  };
  for (const lib of imports.keys()) visit(lib);
  return floor;
}

/** The floors as the page's first diagram lists them: `subgraph F<n>` followed by the library names. */
function documentedFloors(page: string): Map<string, number> {
  const documented = new Map<string, number>();
  const diagram = page.slice(page.indexOf('```mermaid'), page.indexOf('```', page.indexOf('```mermaid') + 3));
  let current = -1;
  for (const line of diagram.split('\n')) {
    const heading = /subgraph F(\d+)/.exec(line);
    if (heading !== null) {
      current = Number(heading[1]);
      continue;
    }
    if (current < 0 || /^\s*end\s*$/.test(line) || line.includes('-->')) continue;
    for (const name of line.split(';').map((s) => s.trim()).filter((s) => s !== '')) documented.set(name, current);
  }
  return documented;
}

test('libraries: no cycles, no app imported, every import declared in the package.json', () => {
  const imports = libraryImports();
  floors(imports);
  for (const [lib, deps] of imports) {
    const declared = (JSON.parse(readFileSync(join(libsDir, lib, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    }).dependencies ?? {};
    for (const dep of deps) {
      assert.ok(`@sluice/${dep}` in declared || packageName(join(libsDir, dep)) in declared,
        `libs/${lib} imports ${packageName(join(libsDir, dep))} without declaring it`);
    }
  }
});

test('docs/architecture.md puts every library on the floor its imports give it, and says what it owns', () => {
  const page = readFileSync(join(repoRoot, 'docs', 'architecture.md'), 'utf8');
  const computed = floors(libraryImports());
  const documented = documentedFloors(page);
  for (const [lib, floor] of computed) {
    assert.equal(documented.get(lib), floor, `libs/${lib} is on floor ${floor}; the page says ${documented.get(lib)}`);
    assert.match(page, new RegExp(`^\\| \`${lib}\` \\|`, 'm'), `the table of docs/architecture.md misses libs/${lib}`);
  }
  for (const lib of documented.keys()) assert.ok(computed.has(lib), `the page names ${lib}, which is no library`);
});
