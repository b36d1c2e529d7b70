#!/usr/bin/env node
// Runs every compiled test file with Node's test runner. Usage:
//   node scripts/run-tests.mjs [unit|e2e|all] [filter...]   (files whose path contains any filter)
// unit: the tests beside the code, two files at a time, in one `node --test`.
// e2e: e2e/, one `node --test` per file (its CPU is measured), SLUICE_E2E_CONCURRENCY files at a time
// (default 4): they start real processes and mostly wait on them (sleeps, ticks, cooldowns, I/O);
// every file picks its own free ports, data directories and namespaces.
// all: both at once. While the unit tests run (CPU-bound, short), e2e runs one file fewer than its
// concurrency; the longest e2e files, started first, are then well under way when the unit tests end.
//
// The longest files start first (scripts/test-durations.json: the expected seconds of the slow
// files; others count as a short file), so that no long file begins last and sets the run's length.
// Each phase ends with its slowest files; .tmp/test-times.json keeps every file's seconds (copy the
// slow ones into scripts/test-durations.json when they change).
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const which = process.argv[2] ?? 'all';
const filters = process.argv.slice(3);

function walk(dir, out) {
  let entries;
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.js')) out.push(relative(root, p));
  }
  return out;
}

// The filters are matched against the path from the repository's root (not the checkout's own folder).
const only = (files) => (filters.length > 0 ? files.filter((f) => filters.some((w) => f.includes(w))) : files);
const unitFiles = [];
for (const top of ['libs', 'apps']) {
  for (const pkg of readdirSync(join(root, top))) walk(join(root, top, pkg, 'dist'), unitFiles);
}
const e2eFiles = walk(join(root, 'e2e', 'dist'), []);

// Longest expected first; a file not in the list counts as `fallback` seconds.
const expected = JSON.parse(readFileSync(join(root, 'scripts', 'test-durations.json'), 'utf8'));
const sourceOf = (f) => f.replace('/dist/', '/src/').replace(/\.js$/, '.ts');
const longestFirst = (files, fallback) => {
  const secs = (f) => expected[sourceOf(f)] ?? fallback;
  return [...files].sort((a, b) => secs(b) - secs(a) || a.localeCompare(b));
};

const unit = which === 'e2e' ? [] : longestFirst(only(unitFiles), 1);
// --test-timeout bounds each test file as a whole: e2e/src/images.test.ts builds three images, up to
// ~10 minutes on a fresh machine.
const e2e = which === 'unit' ? [] : longestFirst(only(e2eFiles), 20);
const e2eConcurrency = Math.max(1, Number(process.env.SLUICE_E2E_CONCURRENCY ?? 4));
if (unit.length === 0 && e2e.length === 0) {
  console.error('no test files found: run `make build` first');
  process.exit(1);
}

// A guard against a hung run, not a target: the whole run is stopped after 60 minutes (the tests
// take ~18 on 2 cores), whatever is running then is killed.
const deadline = Date.now() + 60 * 60 * 1000;
const totals = { pass: 0, fail: 0 };
const TICKS = 100; // clock ticks per second in /proc/<pid>/stat on Linux
const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const running = new Set();
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const child of running) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    process.exit(130);
  });
}

/**
 * Runs `node --test ...args` in its own process group under `sh`, which then writes its /proc stat to
 * fd 3: its cutime and cstime hold the CPU of the test runner and of every process below it that was
 * waited for. Resolves with the exit code, the output (when not passed through) and the CPU seconds.
 */
function nodeTest(label, args, passThrough) {
  return new Promise((resolve) => {
    const started = Date.now();
    const argv = [process.execPath, '--enable-source-maps', '--test', ...args];
    const child = spawn('sh', ['-c', '"$@"; s=$?; cat /proc/$$/stat >&3; exit $s', 'sh', ...argv],
      { stdio: ['ignore', 'pipe', passThrough ? 'inherit' : 'pipe', 'pipe'], cwd: root, detached: true });
    running.add(child);
    const limit = setTimeout(() => {
      console.error(`${label}: out of time, stopping`);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, Math.max(60_000, deadline - Date.now()));
    let out = '';
    let partial = '';
    let stat = '';
    child.stdout.on('data', (chunk) => {
      if (passThrough) {
        // Whole lines only, so that the e2e files' output printed meanwhile does not cut one.
        const text = partial + chunk.toString();
        const end = text.lastIndexOf('\n') + 1;
        process.stdout.write(text.slice(0, end));
        partial = text.slice(end);
        out = (out + text.slice(0, end)).slice(-4096);
      } else {
        out += chunk;
      }
    });
    child.stderr?.on('data', (chunk) => { out += chunk; });
    child.stdio[3].on('data', (d) => { stat += d; });
    child.on('close', (code) => {
      clearTimeout(limit);
      if (partial !== '') {
        process.stdout.write(`${partial}\n`);
        out = (out + partial).slice(-4096);
      }
      running.delete(child);
      const count = (key) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
      const failed = count('fail') + count('cancelled');
      totals.pass += count('pass');
      // A run that ended badly without saying what failed (killed, crashed) counts as one failure.
      totals.fail += failed > 0 || code === 0 ? failed : 1;
      // Fields 16 and 17 of /proc/<pid>/stat (cutime, cstime), counted from the state (field 3).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpu = fields.length > 14 ? (Number(fields[13]) + Number(fields[14])) / TICKS : NaN;
      resolve({ code: code ?? 1, out, cpu, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** The unit tests: one `node --test`, TAP passed through; scripts/test-file-times.mjs writes each file's seconds. */
async function runUnit() {
  const timesFile = join(tmp, `test-times-unit-${process.pid}.tsv`);
  const r = await nodeTest('unit tests', ['--test-concurrency=2', '--test-timeout=300000', '--test-reporter=tap', '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-file-times.mjs', `--test-reporter-destination=${timesFile}`, ...unit], true);
  let files = [];
  try {
    files = readFileSync(timesFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => {
      const [seconds, status, file] = l.split('\t');
      return { file: relative(root, file), seconds: Number(seconds), ok: status === 'ok', cpu: NaN };
    });
    rmSync(timesFile, { force: true });
  } catch { /* killed before it wrote them */ }
  return { ...r, files };
}

/** Starts more e2e files when the number allowed at a time has grown (set while the e2e files run). */
let wakeE2e = () => {};

/**
 * The e2e files, longest first, each in its own `node --test` (its output printed when it ends):
 * `slots()` of them at a time, asked again whenever one ends.
 */
async function runE2e(slots) {
  const queue = [...e2e];
  const files = [];
  let active = 0;
  let cpu = 0;
  let status = 0;
  await new Promise((resolve) => {
    const next = () => {
      while (queue.length > 0 && active < slots()) {
        const file = queue.shift();
        active += 1;
        console.log(`# e2e start: ${file} (${active} running)`);
        void nodeTest(file, ['--test-timeout=900000', '--test-reporter=tap', file], false).then((r) => {
          active -= 1;
          process.stdout.write(r.out.endsWith('\n') || r.out === '' ? r.out : `${r.out}\n`);
          console.log(`# e2e ${r.code === 0 ? 'ok' : 'FAILED'}: ${file} in ${r.seconds.toFixed(1)} s (CPU ${r.cpu.toFixed(1)} s)`);
          files.push({ file, seconds: r.seconds, ok: r.code === 0, cpu: r.cpu });
          if (!Number.isNaN(r.cpu)) cpu += r.cpu;
          if (r.code !== 0) status = r.code;
          next();
        });
      }
      if (queue.length === 0 && active === 0) resolve();
    };
    wakeE2e = next;
    next();
  });
  return { code: status, files, cpu };
}

/** A phase's slowest files, and how busy the cores were with it. */
function summary(name, result, wallSeconds) {
  const sorted = [...result.files].sort((a, b) => b.seconds - a.seconds);
  const fileSeconds = result.files.reduce((s, r) => s + r.seconds, 0);
  console.log(`\n== ${name}: slowest files (seconds${name === 'e2e' ? ', CPU seconds' : ''})`);
  for (const r of sorted.slice(0, 15)) {
    console.log(`${r.seconds.toFixed(1).padStart(8)}${Number.isNaN(r.cpu) ? '' : r.cpu.toFixed(1).padStart(8)}  ${r.file}${r.ok ? '' : ' (failed)'}`);
  }
  console.log(`== ${name}: ${result.files.length} files, ${fileSeconds.toFixed(0)} file-seconds in ${wallSeconds.toFixed(0)} s;`
    + ` ${result.cpu.toFixed(0)} CPU seconds (${(result.cpu / wallSeconds).toFixed(2)} cores busy on average)`);
}

const started = Date.now();
let unitRunning = unit.length > 0;
console.log(`\n== ${unit.length} unit files, 2 at a time; ${e2e.length} e2e files, ${e2eConcurrency} at a time${unitRunning && e2e.length > 0 ? ` (${Math.max(1, e2eConcurrency - 1)} while the unit tests run)` : ''}`);
const unitDone = unitRunning ? runUnit().then((r) => {
  unitRunning = false;
  const wall = (Date.now() - started) / 1000;
  summary('unit', r, wall);
  console.log(`== unit tests done in ${Math.round(wall)} s`);
  wakeE2e();
  return r;
}) : Promise.resolve({ code: 0, files: [] });
const e2eDone = e2e.length > 0 ? runE2e(() => (unitRunning ? Math.max(1, e2eConcurrency - 1) : e2eConcurrency)).then((r) => {
  const wall = (Date.now() - started) / 1000;
  summary('e2e', r, wall);
  console.log(`== e2e tests done in ${Math.round(wall)} s`);
  return r;
}) : Promise.resolve({ code: 0, files: [] });
const results = await Promise.all([unitDone, e2eDone]);
const firstRun = { ...totals };

// A file that failed runs once more, alone, after everything else: a test that fails only when five
// files share two cores is reported as flaky by name (the run still passes); one that fails again, or a
// run that failed without naming its files (crashed, killed), fails the run.
const failedFiles = results.flatMap((r) => r.files.filter((f) => !f.ok).map((f) => f.file));
const unnamed = results.some((r) => r.code !== 0 && r.files.every((f) => f.ok));
const RETRY_AT_MOST = 5;
let code = results.find((r) => r.code !== 0)?.code ?? 0;
const flaky = [];
if (failedFiles.length > 0 && failedFiles.length <= RETRY_AT_MOST && !unnamed) {
  console.log(`\n== ${failedFiles.length} failed file(s), each run again alone: ${failedFiles.join(', ')}`);
  code = 0;
  for (const file of failedFiles) {
    totals.pass = 0; totals.fail = 0;
    const r = await nodeTest(`${file} (again)`, ['--test-timeout=900000', '--test-reporter=tap', file], false);
    process.stdout.write(r.out.endsWith('\n') || r.out === '' ? r.out : `${r.out}\n`);
    if (r.code === 0) {
      flaky.push(file);
      console.log(`# FLAKY: ${file} failed in the full run and passed alone (${totals.pass} passed)`);
    } else {
      code = r.code;
      console.log(`# FAILED AGAIN: ${file} (${totals.fail} failed alone)`);
    }
  }
} else if (failedFiles.length > RETRY_AT_MOST) {
  console.log(`\n== ${failedFiles.length} failed files: more than ${RETRY_AT_MOST}, not run again`);
}

const times = {};
for (const r of results) for (const f of r.files) times[sourceOf(f.file)] = Math.round(f.seconds * 10) / 10;
writeFileSync(join(tmp, 'test-times.json'), `${JSON.stringify(times, null, 2)}\n`);
console.log(`\ntests: ${firstRun.pass} passed, ${firstRun.fail} failed in ${Math.round((Date.now() - started) / 1000)} s (each file's seconds: .tmp/test-times.json)`);
if (flaky.length > 0) console.log(`flaky (failed in the full run, passed alone): ${flaky.join(', ')}`);
process.exit(code);
