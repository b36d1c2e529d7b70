#!/usr/bin/env node
// Runs every compiled test (unit tests beside the code, then e2e/) with Node's
// test runner. Usage: node scripts/run-tests.mjs [unit|e2e|all] [filter]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const which = process.argv[2] ?? 'all';
const filter = process.argv[3];

function walk(dir, out) {
  let entries;
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const unit = [];
for (const top of ['libs', 'apps']) {
  for (const pkg of readdirSync(join(root, top))) walk(join(root, top, pkg, 'dist'), unit);
}
const e2e = walk(join(root, 'e2e', 'dist'), []);
let files = which === 'unit' ? unit : which === 'e2e' ? e2e : [...unit, ...e2e];
if (filter) files = files.filter((f) => f.includes(filter));
if (files.length === 0) {
  console.error('no test files found: run `make build` first');
  process.exit(1);
}
const args = ['--enable-source-maps', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, timeout: 19 * 60 * 1000 });
if (r.error) { console.error(r.error.message); process.exit(1); }
process.exit(r.status ?? 1);
