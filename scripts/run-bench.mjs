#!/usr/bin/env node
// Runs the compiled benchmarks (top-level bench/dist/*.js; servers/ and support/ are their
// helpers), one after another, each in its own process group under a time limit, then
// prints a summary of the `RESULT <bench> key=value ...` line each bench prints.
//
//   node scripts/run-bench.mjs [name ...]        (after `npx tsc -p bench`; `make bench` does both)
//   SLUICE_BENCH_TIMEOUT_S=120                   per-bench limit in seconds (default 120)
//
// Exits 1 when a bench fails, times out or prints no RESULT line; a target a bench reports
// as not met is a figure, not a failure.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'bench', 'dist');
const timeoutS = Number(process.env.SLUICE_BENCH_TIMEOUT_S ?? 120);
const NOT_BENCHES = new Set(['index', 'distcache-redis-child']);
/** Node flags a bench needs (kube-discovery weighs its heap after forced collections). */
const NODE_FLAGS = { 'kube-discovery': ['--expose-gc'] };

if (!existsSync(dist)) {
  console.error('run-bench: bench/dist is missing; build first (npx tsc -p bench)');
  process.exit(1);
}
const all = readdirSync(dist, { withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.js'))
  .map((e) => e.name.slice(0, -3))
  .filter((n) => !NOT_BENCHES.has(n))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  console.error(`run-bench: no such bench: ${unknown.join(', ')} (have: ${all.join(', ')})`);
  process.exit(2);
}
const benches = wanted.length > 0 ? wanted : all;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

let current;
function killGroup(child, signal) {
  try { process.kill(-child.pid, signal); } catch { /* already gone */ }
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (current !== undefined) killGroup(current, 'SIGKILL');
    process.exit(130);
  });
}

/** Runs one bench; resolves with its status, seconds and RESULT lines. */
function run(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [...(NODE_FLAGS[name] ?? []), path.join(dist, `${name}.js`)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    current = child;
    const results = [];
    let pending = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) if (l.startsWith('RESULT ')) results.push(l);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, timeoutS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Whatever the bench left behind in its group (servers it started) goes too.
      killGroup(child, 'SIGKILL');
      current = undefined;
      if (pending.startsWith('RESULT ')) results.push(pending);
      const status = timedOut ? `timeout ${timeoutS}s` : code === 0 ? (results.length > 0 ? 'ok' : 'no RESULT') : `exit ${code ?? signal}`;
      resolve({ name, status, seconds: (Date.now() - started) / 1000, results });
    });
  });
}

console.log(`run-bench: ${benches.length} benches (${benches.join(', ')}), ${timeoutS}s limit each; ${os.cpus().length} CPUs, load average ${load()}`);
const summary = [];
for (const name of benches) {
  console.log(`\n=== ${name} === (load average ${load()})`);
  summary.push(await run(name));
}

console.log(`\n=== summary === (load average ${load()})`);
const width = Math.max(...summary.map((s) => s.name.length), 5);
console.log(`${'bench'.padEnd(width)}  ${'status'.padEnd(12)}  ${'time'.padStart(6)}  results`);
for (const s of summary) {
  const figures = s.results.map((r) => r.split(' ').slice(2).join(' ')).join(' | ');
  console.log(`${s.name.padEnd(width)}  ${s.status.padEnd(12)}  ${s.seconds.toFixed(1).padStart(5)}s  ${figures}`);
}
process.exit(summary.every((s) => s.status === 'ok') ? 0 : 1);
