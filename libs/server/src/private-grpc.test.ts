import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { findPrivateGrpcUses } from './testdata/private-grpc-check.js';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const REPO = fileURLToPath(new URL('../../..', import.meta.url));

function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(fileURLToPath(new URL('../tsconfig.json', import.meta.url)), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
  });
  if (parsed === undefined) throw new Error('tsconfig.json of libs/server could not be read');
  return parsed.options;
}

/** The lib's own sources: tests and their fixtures aside. */
const libSources = (): string[] => readdirSync(SRC).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).map((n) => join(SRC, n));

test('libs/server uses only the public API of grpc-js: no cast of a grpc-js object, no private member, no grpc-js object made opaque', () => {
  const uses = findPrivateGrpcUses(libSources(), compilerOptions());
  assert.deepEqual(uses, []);
});

test('the check catches each way of reaching into grpc-js (its fixture)', () => {
  const fixture = join(SRC, 'testdata', 'private-grpc-fixture.ts');
  const uses = findPrivateGrpcUses([fixture], compilerOptions());
  const lines = readFileSync(fixture, 'utf8').split('\n');
  const at = (needle: string): number => lines.findIndex((l) => l.includes(needle)) + 1;
  assert.deepEqual(uses.map((u) => [u.line, u.what.split(' ').slice(0, 4).join(' ')]), [
    [at('as unknown as'), 'a grpc-js object cast'],
    [at("server['sessions']"), 'private member sessions'],
    [at('widened(server)'), 'a grpc-js object handed'],
  ]);
});

test('no source of a lib or app names grpc-js\'s private map of HTTP/2 servers', () => {
  const hits: string[] = [];
  for (const top of ['libs', 'apps']) {
    for (const pkg of readdirSync(join(REPO, top))) {
      const walk = (dir: string): void => {
        let entries: import('node:fs').Dirent[];
        try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
        for (const e of entries) {
          const path = join(dir, e.name);
          if (e.isDirectory()) walk(path);
          else if (e.name.endsWith('.ts') && !path.includes('/testdata/') && !e.name.endsWith('.test.ts') && readFileSync(path, 'utf8').includes('http2Servers')) hits.push(path);
        }
      };
      walk(join(REPO, top, pkg, 'src'));
    }
  }
  assert.deepEqual(hits, []);
});
