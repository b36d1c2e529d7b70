import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOADER_OPTIONS } from './load.js';

const libDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(libDir, 'scripts', 'generate-types.mjs');
const committed = path.join(libDir, 'src', 'generated');

function files(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel === '' ? name : `${rel}/${name}`;
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...files(dir, r));
    else out.push(r);
  }
  return out;
}

test('src/generated is what the .proto files generate today', (t) => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sluice-proto-gen-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  execFileSync(process.execPath, [script, '--out', tmp], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
  const fresh = files(tmp);
  const hint = 'libs/proto/src/generated is out of date with the .proto files: run `make proto` and commit the result';
  assert.ok(fresh.includes('index.ts') && fresh.length > 10, 'the generator wrote the types and their index');
  assert.deepEqual(files(committed), fresh, `${hint} (the files differ)`);
  for (const f of fresh) {
    assert.equal(readFileSync(path.join(committed, f), 'utf8'), readFileSync(path.join(tmp, f), 'utf8'), `${hint} (${f} differs)`);
  }
});

test('the generated types assume the options the loader decodes with', async () => {
  const { GENERATOR_FLAGS } = (await import(script)) as { GENERATOR_FLAGS: string[] };
  const o = LOADER_OPTIONS;
  assert.equal(o.keepCase, true);
  assert.equal(o.longs, Number);
  assert.equal(o.enums, String);
  assert.equal(o.bytes, String);
  assert.equal(o.defaults, true);
  assert.equal(o.oneofs, true);
  for (const flag of ['--keepCase', '--longs=Number', '--enums=String', '--bytes=String', '--defaults', '--oneofs']) {
    assert.ok(GENERATOR_FLAGS.includes(flag), `generator flag ${flag}`);
  }
});
