/**
 * What the traffic tap costs: requests per second and p99 latency for a tiny
 * workload (node:http answering 200 "ok"), measured in the same run
 *   - direct,
 *   - through sluice-tap (the real bin/sluice-tap process; each request
 *     checked with CheckHTTP against the real engine, in this process, with a
 *     rate limiter that always has tokens),
 *   - through nginx as a plain reverse proxy (keep-alive upstream, one worker,
 *     like the tap's one event loop), when nginx is installed.
 * Load: wrk when installed, else an in-process keep-alive loop. Each target
 * gets a 1 s warm-up and one bounded measuring phase.
 *
 *   npx tsc -p bench && node bench/dist/tap-overhead.js [seconds-per-phase=5] [connections=32]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { createServer } from '@sluice/server';
import { Engine, applyLocalLimiters, loadLocalLimiters, registerFlowControlServices } from '@sluice/flowcontrol';
import { createStaticDiscovery } from '@sluice/discovery';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Result { rps: number; p99ms: number; errors: number }

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}

/** Resolves with the first line of the child's `stream` matching `re`. */
function lineMatching(child: ChildProcess, stream: 'stdout' | 'stderr', re: RegExp, ms = 15_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${re}: ${buf}`)), ms);
    child[stream]?.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = re.exec(buf);
      if (m !== null) { clearTimeout(timer); resolve(m); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}: ${buf}`)); });
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGTERM');
  });
}

const WORKLOAD = `
const http = require('node:http');
const s = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }); res.end('ok'); });
s.keepAliveTimeout = 65000;
s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;

function parseWrkDuration(v: string, unit: string): number {
  const n = Number(v);
  return unit === 'us' ? n / 1000 : unit === 'ms' ? n : unit === 's' ? n * 1000 : n * 60_000;
}

/** Runs wrk without blocking this process (the agent answers checks from here). */
async function runWrk(wrk: string, url: string, seconds: number, connections: number): Promise<Result> {
  const child = spawn(wrk, ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
  const status = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(timer);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  if (status !== 0 || rps === null || p99 === null) throw new Error(`wrk failed: ${err}${out}`);
  const errs = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = Number(errs?.[1] ?? 0) + (sockErr === null ? 0 : sockErr.slice(1).reduce((a, b) => a + Number(b), 0));
  return { rps: Number(rps[1]), p99ms: parseWrkDuration(p99[1] as string, p99[2] as string), errors };
}

/** Fallback load: `connections` keep-alive loops in this process. */
async function runLoop(url: string, seconds: number, connections: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + seconds * 1000;
  const one = (): Promise<void> => new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => { if (res.statusCode !== 200) errors++; latencies.push(performance.now() - t0); resolve(); });
    });
    req.on('error', () => { errors++; resolve(); });
  });
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, async () => { while (Date.now() < until) await one(); }));
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p99ms: latencies[Math.floor(0.99 * (latencies.length - 1))] ?? NaN, errors };
}

async function measure(name: string, url: string, seconds: number, connections: number, wrk: string | undefined): Promise<Result> {
  const load = (s: number): Promise<Result> => (wrk !== undefined ? runWrk(wrk, url, s, connections) : runLoop(url, s, connections));
  await load(1); // warm-up: JIT, keep-alive pools, the agent channel
  const r = await load(seconds);
  console.log(`${name.padEnd(8)} ${Math.round(r.rps).toString().padStart(7)} req/s   p99 ${r.p99ms.toFixed(2).padStart(7)} ms   errors ${r.errors}`);
  return r;
}

function nginxConfig(dir: string, port: number, upstreamPort: number): string {
  for (const d of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, d), { recursive: true });
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream workload { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://workload;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`;
}

async function main(): Promise<void> {
  const seconds = Math.min(5, Math.max(1, Number(process.argv[2] ?? 5)));
  const connections = Math.max(1, Number(process.argv[3] ?? 32));
  const wrk = which('wrk');
  const nginx = which('nginx');
  console.log(`tap overhead: ${seconds} s per phase, ${connections} connections, load from ${wrk !== undefined ? 'wrk (2 threads)' : 'an in-process keep-alive loop (install wrk for better figures: `make bench`)'}; ${os.cpus().length} cores`);
  if (nginx === undefined) console.log('nginx is not installed: skipping the nginx baseline (`make bench` installs it: scripts/setup.sh with SLUICE_SETUP_BENCH=1)');

  const children: ChildProcess[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sluice-tap-bench-'));
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters('- { control_point: ingress, bucket_capacity: 1e12, fill_amount: 1e12, interval: 1s, label_key: http.method }'));
  const agent = createServer({
    listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' },
    grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 25, 100, 250, 1000] },
    http: { disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 25, 100, 250, 1000], max_header_bytes: 1048576, read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s' },
    grpc_gateway: { grpc_server_address: '' },
    tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false },
  }, { registry: new Registry() });
  registerFlowControlServices(agent, engine, createStaticDiscovery({ entities: [{ ip_address: '127.0.0.1', uid: 'bench', services: ['bench-svc'] }] }));
  await agent.start();
  try {
    const workload = spawn(process.execPath, ['-e', WORKLOAD], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(workload);
    const workloadPort = Number((await lineMatching(workload, 'stdout', /port (\d+)/))[1]);

    const tap = spawn(path.join(ROOT, 'bin/sluice-tap'), ['--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0', '--upstream', `http://127.0.0.1:${workloadPort}`,
      '--agent', `127.0.0.1:${agent.address().port}`, '--log-level', 'info'], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(tap);
    const started = await lineMatching(tap, 'stderr', /"tap started","meta":\{"listen":\{"host":"[^"]*","port":(\d+)\},"admin":\{"host":"[^"]*","port":(\d+)/);
    const tapPort = Number(started[1]);
    const adminPort = Number(started[2]);

    const direct = await measure('direct', `http://127.0.0.1:${workloadPort}/`, seconds, connections, wrk);
    const tapped = await measure('tap', `http://127.0.0.1:${tapPort}/`, seconds, connections, wrk);
    // Every request was really checked: the tap's own counters.
    const metrics = await fetch(`http://127.0.0.1:${adminPort}/metrics`).then((r) => r.text());
    const sample = (re: RegExp): string => re.exec(metrics)?.[1] ?? '?';
    console.log(`         tap counters: accepted ${sample(/^tap_requests_total\{decision="accepted"\} (\d+)/m)}, fail_open ${sample(/^tap_requests_total\{decision="fail_open"\} (\d+)/m)}`);
    let viaNginx: Result | undefined;
    if (nginx !== undefined) {
      const port = await freePort();
      writeFileSync(path.join(tmp, 'nginx.conf'), nginxConfig(tmp, port, workloadPort));
      const ng = spawn(nginx, ['-p', tmp, '-c', path.join(tmp, 'nginx.conf'), '-e', path.join(tmp, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
      children.push(ng);
      await waitForPort(port);
      viaNginx = await measure('nginx', `http://127.0.0.1:${port}/`, seconds, connections, wrk);
    }
    console.log(`ratio tap/direct: rps ${(tapped.rps / direct.rps).toFixed(2)}, p99 ${(tapped.p99ms / direct.p99ms).toFixed(2)}x`);
    if (viaNginx !== undefined) {
      const ratio = tapped.rps / viaNginx.rps;
      console.log(`ratio tap/nginx:  rps ${ratio.toFixed(2)} (target >= 0.60: ${ratio >= 0.6 ? 'met' : 'NOT met'}), p99 ${(tapped.p99ms / viaNginx.p99ms).toFixed(2)}x`);
    }
  } finally {
    for (const c of children.reverse()) await stop(c);
    await agent.shutdown(1000);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
