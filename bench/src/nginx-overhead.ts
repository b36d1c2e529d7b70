/**
 * What Sluice's nginx handler (deploy/nginx) costs: one nginx (one worker) serves two
 * servers in front of the same tiny workload (node:http answering 200 "ok"):
 *   - plain: a keep-alive reverse proxy,
 *   - sluice: the same, with `access_by_lua_block { require("sluice").access() }` and
 *     `log_by_lua_block`, each request checked by the real sluice-agent (bin/sluice-agent)
 *     over the shipped kept-alive upstream (POST /v1/flowcontrol/checkhttp), against a
 *     local rate limiter on the control point that always has tokens.
 * wrk loads each in turns (a 1 s warm-up, then a measured phase; two rounds each, means).
 * Reported: sluice ÷ plain requests per second (target ≥ 0.6), p99s, and the CPU time per
 * request of the nginx worker (both servers) and of the agent (per check).
 * Last line: `RESULT nginx-overhead sluice_vs_plain=.. plain_rps=.. sluice_rps=.. agent_cpu_us=.. nginx_cpu_us=.. sluice_nginx_cpu_us=.. fail_open=..`
 *
 *   npx tsc -p bench && node bench/dist/nginx-overhead.js [seconds-per-phase=5] [connections=32]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './support/bench-paths.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { processCpuMs } from './support/proc-cpu.js';
import { printResult } from './support/result-line.js';

const DEPLOY = path.join(ROOT, 'deploy', 'nginx');
const WORKLOAD = `
const http = require('node:http');
const s = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }); res.end('ok'); });
s.keepAliveTimeout = 65000;
s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;

interface Phase { rps: number; p99ms: number; errors: number; requests: number; cpuUs: number[] }

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const port = (s.address() as net.AddressInfo).port; s.close(() => resolve(port)); });
  });
}

async function waitFor(cond: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function runWrk(wrk: string, url: string, seconds: number, connections: number): Promise<Omit<Phase, 'cpuUs'>> {
  const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(wrk, ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.once('exit', (code) => { clearTimeout(timer); resolve({ code, out }); });
  });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(r.out);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(r.out);
  if (r.code !== 0 || rps === null || p99 === null) throw new Error(`wrk failed: ${r.out}`);
  const unit = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[p99[2] as 'us' | 'ms' | 's' | 'm'];
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(r.out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(r.out);
  const errors = non2xx + (sock === null ? 0 : sock.slice(1).reduce((a, b) => a + Number(b), 0));
  return { rps: Number(rps[1]), p99ms: Number(p99[1]) * unit, errors, requests: Number(/(\d+) requests in/.exec(r.out)?.[1] ?? NaN) };
}

function nginxConfig(dir: string, agentPort: number, workloadPort: number, plainPort: number, sluicePort: number): string {
  for (const d of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, d), { recursive: true });
  writeFileSync(path.join(dir, 'sluice-http.conf'), readFileSync(path.join(DEPLOY, 'sluice-http.conf'), 'utf8')
    .replace('/etc/nginx/sluice/lua/', `${path.join(DEPLOY, 'lua')}/`)
    .replace('agent_port = 8080', `agent_port = ${agentPort}`));
  const proxy = 'proxy_pass http://workload; proxy_http_version 1.1; proxy_set_header Connection "";';
  return `load_module /usr/lib/nginx/modules/ndk_http_module.so;
load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;
daemon off;
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
  include ${dir}/sluice-http.conf;
  upstream workload { server 127.0.0.1:${workloadPort}; keepalive 64; }
  server { listen 127.0.0.1:${plainPort}; location / { ${proxy} } }
  server {
    listen 127.0.0.1:${sluicePort};
    include ${path.join(DEPLOY, 'sluice-server.conf')};
    location / {
      access_by_lua_block { require("sluice").access() }
      log_by_lua_block { require("sluice").log() }
      ${proxy}
    }
  }
}
`;
}

/** The nginx worker: the master's one child. */
function workerPid(master: number): number {
  const kids = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).filter((s) => s !== '');
  if (kids.length !== 1) throw new Error(`nginx ${master}: ${kids.length} workers`);
  return Number(kids[0]);
}

async function measure(name: string, wrk: string, url: string, seconds: number, connections: number, pids: number[]): Promise<Phase> {
  await runWrk(wrk, url, 1, connections);
  const before = pids.map((p) => processCpuMs(p) ?? NaN);
  const r = await runWrk(wrk, url, seconds, connections);
  const cpuUs = pids.map((p, i) => (((processCpuMs(p) ?? NaN) - (before[i] as number)) * 1000) / r.requests);
  console.log(`${name.padEnd(8)} ${Math.round(r.rps).toString().padStart(7)} req/s   p99 ${r.p99ms.toFixed(2).padStart(7)} ms   errors ${r.errors}   cpu/req ${cpuUs.map((c) => `${c.toFixed(1)} us`).join(', ')}`);
  return { ...r, cpuUs };
}

function mean(phases: Phase[]): Phase {
  const requests = phases.reduce((a, p) => a + p.requests, 0);
  const width = phases[0]?.cpuUs.length ?? 0;
  return {
    rps: phases.reduce((a, p) => a + p.rps, 0) / phases.length,
    p99ms: Math.max(...phases.map((p) => p.p99ms)),
    errors: phases.reduce((a, p) => a + p.errors, 0),
    requests,
    cpuUs: Array.from({ length: width }, (_, i) => phases.reduce((a, p) => a + (p.cpuUs[i] ?? NaN) * p.requests, 0) / requests),
  };
}

async function main(): Promise<void> {
  const seconds = Math.min(10, Math.max(1, Number(process.argv[2] ?? 5)));
  const connections = Math.max(1, Number(process.argv[3] ?? 32));
  const wrk = which('wrk');
  if (wrk === undefined || !which('nginx')) {
    console.log('nginx or wrk is not installed (scripts/setup.sh with SLUICE_SETUP_BENCH=1 installs them)');
    printResult('nginx-overhead', { sluice_vs_plain: 'n/a' });
    return;
  }
  console.log(`nginx overhead: ${seconds} s per phase, ${connections} connections, wrk (2 threads); ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sluice-nginx-bench-'));
  const children: ChildServer[] = [];
  let ng: ChildProcess | undefined;
  try {
    const limiters = path.join(tmp, 'limiters.yaml');
    writeFileSync(limiters, '- { control_point: ingress, bucket_capacity: 1e12, fill_amount: 1e12, interval: 1s }\n');
    const agent = await startChildServer({
      name: 'sluice-agent', command: path.join(ROOT, 'bin', 'sluice-agent'), args: ['--local-limiters', limiters],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, SLUICE_NODE_FLAGS: process.env.SLUICE_NODE_FLAGS ?? '',
        SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]', SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
        SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0', SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
      },
      portPattern: /"msg":"server listening".*?"port":(\d+)/, startTimeoutMs: 60_000,
    });
    children.push(agent);
    const workload = await startChildServer({ name: 'workload', command: process.execPath, args: ['-e', WORKLOAD], portPattern: /port (\d+)/ });
    children.push(workload);
    const [plainPort, sluicePort] = [await freePort(), await freePort()];
    writeFileSync(path.join(tmp, 'nginx.conf'), nginxConfig(tmp, agent.port, workload.port, plainPort, sluicePort));
    ng = spawn('nginx', ['-p', tmp, '-c', path.join(tmp, 'nginx.conf'), '-e', path.join(tmp, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
    const status = `http://127.0.0.1:${sluicePort}/_sluice/status`;
    await waitFor(async () => (await fetch(status)).ok, 'nginx answering');
    const worker = workerPid(ng.pid ?? -1);
    const plainUrl = `http://127.0.0.1:${plainPort}/`;
    const sluiceUrl = `http://127.0.0.1:${sluicePort}/`;
    // Freshly started processes (the agent's JIT above all) are slow for their first seconds.
    await runWrk(wrk, sluiceUrl, 4, connections);
    const plains: Phase[] = [];
    const sluices: Phase[] = [];
    for (let round = 0; round < 2; round++) {
      plains.push(await measure('plain', wrk, plainUrl, seconds, connections, [worker]));
      sluices.push(await measure('sluice', wrk, sluiceUrl, seconds, connections, [worker, agent.pid]));
    }
    const plain = mean(plains);
    const sluice = mean(sluices);
    const counters = (await (await fetch(status)).json()) as { checks: number; fail_open: number; rejected: number };
    const r = sluice.rps / plain.rps;
    console.log(`sluice/plain: rps ${r.toFixed(2)} (target >= 0.60: ${r >= 0.6 ? 'met' : 'NOT met'}), p99 ${plain.p99ms.toFixed(2)} -> ${sluice.p99ms.toFixed(2)} ms`);
    console.log(`cpu per request: nginx ${plain.cpuUs[0]?.toFixed(1)} us plain, ${sluice.cpuUs[0]?.toFixed(1)} us with the check; agent ${sluice.cpuUs[1]?.toFixed(1)} us per check`);
    console.log(`handler counters: ${JSON.stringify(counters)}`);
    printResult('nginx-overhead', {
      sluice_vs_plain: r.toFixed(2), plain_rps: Math.round(plain.rps), sluice_rps: Math.round(sluice.rps),
      plain_p99_ms: plain.p99ms.toFixed(2), sluice_p99_ms: sluice.p99ms.toFixed(2),
      agent_cpu_us: (sluice.cpuUs[1] ?? NaN).toFixed(1), nginx_cpu_us: (plain.cpuUs[0] ?? NaN).toFixed(1), sluice_nginx_cpu_us: (sluice.cpuUs[0] ?? NaN).toFixed(1),
      fail_open: counters.fail_open, errors: sluice.errors + plain.errors,
    });
  } finally {
    if (ng !== undefined && ng.exitCode === null) {
      const exited = new Promise((r) => ng?.once('exit', r));
      ng.kill('SIGQUIT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (ng.exitCode === null) ng.kill('SIGKILL');
    }
    for (const c of children.reverse()) await c.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => { console.error(err); process.exit(1); });
