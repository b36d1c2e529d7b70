#!/usr/bin/env node
// Runs every compiled test with Node's test runner: unit tests beside the code
// (two files at a time), then e2e/ (real processes, mostly waiting on them, so
// SLUICE_E2E_CONCURRENCY files at a time, default 3; every e2e file picks its
// own free ports). Usage: node scripts/run-tests.mjs [unit|e2e|all] [filter]
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';

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

// The filter is matched against the path from the repository's root (not the checkout's own folder).
const only = (files) => (filter ? files.filter((f) => relative(root, f).includes(filter)) : files);
const unit = [];
for (const top of ['libs', 'apps']) {
  for (const pkg of readdirSync(join(root, top))) walk(join(root, top, pkg, 'dist'), unit);
}
// The longest e2e files start first, so that they do not begin last and set the phase's length.
const SLOW_FIRST = ['images.test.js', 'helm-template.test.js', 'distcache-agents-faults.test.js'];
const rank = (f) => { const i = SLOW_FIRST.findIndex((s) => f.endsWith(`/${s}`)); return i < 0 ? SLOW_FIRST.length : i; };
const e2e = walk(join(root, 'e2e', 'dist'), []).sort((a, b) => rank(a) - rank(b));
const phases = [];
if (which !== 'e2e') phases.push({ name: 'unit', files: only(unit), concurrency: 2, fileTimeoutMs: 300_000 });
// --test-timeout bounds each test file as a whole: e2e/src/images.test.ts builds three images, up to
// ~10 minutes on a fresh machine.
if (which !== 'unit') phases.push({ name: 'e2e', files: only(e2e), concurrency: Number(process.env.SLUICE_E2E_CONCURRENCY ?? 3), fileTimeoutMs: 900_000 });
if (phases.every((p) => p.files.length === 0)) {
  console.error('no test files found: run `make build` first');
  process.exit(1);
}

// A guard against a hung run, not a target: the whole run is stopped after 60 minutes (the tests
// take ~25 on 2 cores: the image build of e2e/src/images.test.ts alone is ~8 of them), each phase
// getting what is left.
const deadline = Date.now() + 60 * 60 * 1000;
const totals = { pass: 0, fail: 0 };

/** Runs one phase, passing its output through and adding up its summary lines. */
function runPhase(phase) {
  return new Promise((resolve) => {
    const args = ['--enable-source-maps', '--test', `--test-concurrency=${phase.concurrency}`, `--test-timeout=${phase.fileTimeoutMs}`, ...phase.files];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
    const limit = setTimeout(() => { console.error(`${phase.name} tests: out of time, stopping`); child.kill('SIGKILL'); }, Math.max(60_000, deadline - Date.now()));
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4096);
    });
    child.on('close', (code) => {
      clearTimeout(limit);
      const count = (key) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tail)?.[1] ?? 0);
      totals.pass += count('pass');
      totals.fail += count('fail') + count('cancelled');
      resolve(code ?? 1);
    });
  });
}

let status = 0;
for (const phase of phases) {
  if (phase.files.length === 0) continue;
  console.log(`\n== ${phase.name} tests: ${phase.files.length} files, ${phase.concurrency} at a time`);
  const started = Date.now();
  const code = await runPhase(phase);
  console.log(`== ${phase.name} tests done in ${Math.round((Date.now() - started) / 1000)} s`);
  if (code !== 0) status = code;
}
console.log(`\ntests: ${totals.pass} passed, ${totals.fail} failed`);
process.exit(status);
