/**
 * What the traffic tap costs: requests per second and p99 latency for a tiny
 * workload (node:http answering 200 "ok"), measured in the same run
 *   - direct,
 *   - through sluice-tap (the real apps/tap/dist/main.js process, as bin/sluice-tap starts it; each request
 *     checked by the real sluice-agent process started by bin/sluice-agent (its V8 heap flags): the
 *     CheckHTTP services, the engine and a local rate limiter on the tap's
 *     control point that always has tokens, static discovery giving the
 *     loopback destination a service),
 *   - through a bare proxy with the tap's forwarding core and no check
 *     (bench/src/servers/bare-tap-proxy.ts: the same HTTP server settings,
 *     undici pool and forwardRequest), so tap ÷ bare is what the check costs,
 *   - through nginx as a plain reverse proxy (keep-alive upstream, one worker,
 *     like the tap's one event loop), when nginx is installed.
 * Every server is its own process; this one only runs the load generator:
 * wrk when installed, else an in-process keep-alive loop. Each proxy first takes 4 s of unmeasured load
 * (freshly started processes are many times slower for their first seconds), then each target gets a
 * 1 s warm-up and one bounded measuring phase; the bare proxy, the tap and nginx take
 * turns, twice each, and their figures are the means (the machine's load drifts). A second case sends a
 * browser-like request (15 header fields: user agent, accept*, cookie, referer, sec-fetch-*, ...) to the
 * bare proxy, the tap and nginx once each: the agent's header interest keeps the check small, the
 * forwarding core carries every field. The tap and the bare proxy run with the same Node flags. The tap's counters are read
 * afterwards to show that every request was decided by the agent, and the
 * CPU time of the tap and the agent per request is reported.
 * Targets: tap ≥ 0.85 of the bare proxy, tap ≥ 0.3 of nginx.
 * Last line: `RESULT tap-overhead tap_vs_nginx=.. tap_vs_bare=.. tap_vs_direct=.. tap_cpu_us=.. bare_cpu_us=.. agent_cpu_us=.. tap_p99_ms=.. nginx_p99_ms=..
 * browser_tap_vs_bare=.. browser_tap_vs_nginx=.. browser_tap_cpu_us=.. browser_bare_cpu_us=.. browser_agent_cpu_us=..`.
 *
 *   npx tsc -p bench && node bench/dist/tap-overhead.js [seconds-per-phase=5] [connections=32]
 *   SLUICE_BENCH_TAP_MAIN=/path/to/apps/tap/dist/main.js   measures that build of the tap instead
 *   SLUICE_BENCH_TAP_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'   extra Node flags for the tap alone (profiling)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './support/bench-paths.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { printResult } from './support/result-line.js';
import { combine, measure, ROUNDS, runLoop, runWrk, WARM_UP_S, type Phase, type Result } from './support/proxy-load.js';

const CONTROL_POINT = 'ingress';

/** Node flags of the tap and of the bare proxy: the same for both, so that only the check differs. */
const PROXY_NODE_FLAGS = ['--enable-source-maps'];

/** The second case's request: the header fields a browser sends on a page load (15 with Host). */
const BROWSER_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
  ['Accept-Language', 'en-GB,en;q=0.9,de;q=0.8'],
  ['Accept-Encoding', 'gzip, deflate, br'],
  ['Cookie', 'session=8f14e45fceea167a5a36dedd4bea2543; theme=dark; _ga=GA1.1.1234567890.1700000000'],
  ['Referer', 'https://shop.example.com/catalog?page=2'],
  ['Cache-Control', 'max-age=0'],
  ['Upgrade-Insecure-Requests', '1'],
  ['Sec-Fetch-Dest', 'document'],
  ['Sec-Fetch-Mode', 'navigate'],
  ['Sec-Fetch-Site', 'same-origin'],
  ['Sec-Fetch-User', '?1'],
  ['Sec-Ch-Ua', '"Chromium";v="124", "Not-A.Brand";v="99"'],
  ['Sec-Ch-Ua-Platform', '"Linux"'],
];
const LIMITERS_YAML = `- { control_point: ${CONTROL_POINT}, service: bench-svc, bucket_capacity: 1e12, fill_amount: 1e12, interval: 1s, label_key: http.method }\n`;

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

function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGTERM');
  });
}

/** The real agent in its own process, with the bench limiter and discovery. */
function startAgentProcess(dir: string): Promise<ChildServer> {
  const limiters = path.join(dir, 'limiters.yaml');
  writeFileSync(limiters, LIMITERS_YAML);
  return startChildServer({
    name: 'sluice-agent',
    // As shipped: bin/sluice-agent execs node with the agent's V8 heap flags (same pid).
    command: path.join(ROOT, 'bin', 'sluice-agent'),
    args: ['--local-limiters', limiters],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]',
      SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
      // The dist cache's defaults (:3320, :3322) would collide with another agent on this host.
      SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'bench', services: ['bench-svc'] }]),
    },
    portPattern: /"msg":"server listening".*?"port":(\d+)/,
    startTimeoutMs: 60_000, // a loaded machine starts the agent slowly
  });
}

const WORKLOAD = `
const http = require('node:http');
const s = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }); res.end('ok'); });
s.keepAliveTimeout = 65000;
s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;

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

function ratio(a: number, b: number): string {
  return Number.isFinite(a / b) ? (a / b).toFixed(2) : 'n/a';
}

async function main(): Promise<void> {
  const seconds = Math.min(5, Math.max(1, Number(process.argv[2] ?? 5)));
  const connections = Math.max(1, Number(process.argv[3] ?? 32));
  const wrk = which('wrk');
  const nginx = which('nginx');
  console.log(`tap overhead: ${seconds} s per phase, ${connections} connections, load from ${wrk !== undefined ? 'wrk (2 threads)' : 'an in-process keep-alive loop (install wrk for better figures: `make bench`)'}; ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (nginx === undefined) console.log('nginx is not installed: skipping the nginx baseline (`make bench` installs it: scripts/setup.sh with SLUICE_SETUP_BENCH=1)');

  const children: ChildServer[] = [];
  let ng: ChildProcess | undefined;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sluice-tap-bench-'));
  try {
    const agent = await startAgentProcess(tmp);
    children.push(agent);
    const workload = await startChildServer({ name: 'workload', command: process.execPath, args: ['-e', WORKLOAD], portPattern: /port (\d+)/ });
    children.push(workload);
    const adminPort = await freePort();
    const tap = await startChildServer({
      name: 'sluice-tap',
      // SLUICE_BENCH_TAP_MAIN: another build of the tap's main.js, to compare two builds on one machine.
      command: process.execPath,
      args: [...PROXY_NODE_FLAGS, ...(process.env.SLUICE_BENCH_TAP_FLAGS ?? '').split(' ').filter((f) => f !== ''), process.env.SLUICE_BENCH_TAP_MAIN ?? path.join(ROOT, 'apps', 'tap', 'dist', 'main.js'), '--listen', '127.0.0.1:0', '--admin', `127.0.0.1:${adminPort}`, '--upstream', `http://127.0.0.1:${workload.port}`,
        '--agent', `127.0.0.1:${agent.port}`, '--control-point', CONTROL_POINT, '--log-level', 'info'],
      portPattern: /"tap started","meta":\{"listen":\{"host":"[^"]*","port":(\d+)\}/,
      startTimeoutMs: 60_000,
    });
    children.push(tap);

    const bare = await startChildServer({
      name: 'bare-tap-proxy',
      command: process.execPath,
      args: [...PROXY_NODE_FLAGS, path.join(ROOT, 'bench', 'dist', 'servers', 'bare-tap-proxy.js'), String(workload.port)],
      portPattern: /PORT (\d+)/,
      startTimeoutMs: 60_000,
    });
    children.push(bare);

    let nginxPort: number | undefined;
    if (nginx !== undefined) {
      nginxPort = await freePort();
      writeFileSync(path.join(tmp, 'nginx.conf'), nginxConfig(tmp, nginxPort, workload.port));
      ng = spawn(nginx, ['-p', tmp, '-c', path.join(tmp, 'nginx.conf'), '-e', path.join(tmp, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
      await waitForPort(nginxPort);
    }
    // Freshly started processes serve their first seconds of load many times slower, the tap with the agent
    // most (measured on a loaded 2-core machine, 3 s phases from the start: 200, 259, 1 637, 2 709, 2 724,
    // 2 922 req/s, and 1 850 down to 172 us of tap CPU per request). Each proxy takes WARM_UP_S of load
    // before anything is measured, so that the rounds compare warm processes.
    for (const port of [bare.port, tap.port, ...(nginxPort === undefined ? [] : [nginxPort])]) {
      await (wrk !== undefined ? runWrk(wrk, `http://127.0.0.1:${port}/`, WARM_UP_S, connections, []) : runLoop(`http://127.0.0.1:${port}/`, WARM_UP_S, connections, []));
    }
    const direct = await measure('direct', `http://127.0.0.1:${workload.port}/`, seconds, connections, wrk);
    // The targets take turns, ROUNDS times, so that a change in the machine's load falls on all of them.
    const bares: Phase[] = [];
    const taps: Phase[] = [];
    const nginxes: Phase[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bares.push(await measure('bare', `http://127.0.0.1:${bare.port}/`, seconds, connections, wrk, [bare.pid]));
      taps.push(await measure('tap', `http://127.0.0.1:${tap.port}/`, seconds, connections, wrk, [tap.pid, agent.pid]));
      if (nginxPort !== undefined) nginxes.push(await measure('nginx', `http://127.0.0.1:${nginxPort}/`, seconds, connections, wrk));
    }
    const viaBare = combine(bares);
    const tapped = combine(taps);
    const viaNginx: Result | undefined = nginxes.length > 0 ? combine(nginxes) : undefined;
    // The browser-like request, once each.
    const browserBare = await measure('bare (browser)', `http://127.0.0.1:${bare.port}/`, seconds, connections, wrk, [bare.pid], BROWSER_HEADERS);
    const browserTap = await measure('tap (browser)', `http://127.0.0.1:${tap.port}/`, seconds, connections, wrk, [tap.pid, agent.pid], BROWSER_HEADERS);
    const browserNginx = nginxPort === undefined ? undefined : await measure('nginx (browser)', `http://127.0.0.1:${nginxPort}/`, seconds, connections, wrk, [], BROWSER_HEADERS);
    console.log(`CPU per request: tap ${tapped.cpuUs[0]?.toFixed(0)} us, agent ${tapped.cpuUs[1]?.toFixed(0)} us, bare proxy ${viaBare.cpuUs[0]?.toFixed(0)} us`);
    console.log(`CPU per request (browser-like request): tap ${browserTap.cpuUs[0]?.toFixed(0)} us, agent ${browserTap.cpuUs[1]?.toFixed(0)} us, bare proxy ${browserBare.cpuUs[0]?.toFixed(0)} us`);
    // Every request was really decided by the agent: the tap's own counters.
    const metrics = await fetch(`http://127.0.0.1:${adminPort}/metrics`).then((r) => r.text());
    const sample = (re: RegExp): string => re.exec(metrics)?.[1] ?? '?';
    console.log(`tap counters: accepted ${sample(/^tap_requests_total\{decision="accepted"\} (\d+)/m)}, fail_open ${sample(/^tap_requests_total\{decision="fail_open"\} (\d+)/m)}`
      + ` (unavailable ${sample(/^tap_fail_open_total\{reason="unavailable"\} (\d+)/m)}, deadline ${sample(/^tap_fail_open_total\{reason="deadline"\} (\d+)/m)}, error ${sample(/^tap_fail_open_total\{reason="error"\} (\d+)/m)})`);
    console.log(`ratio tap/direct: rps ${ratio(tapped.rps, direct.rps)}, p99 ${ratio(tapped.p99ms, direct.p99ms)}x`);
    const b = tapped.rps / viaBare.rps;
    console.log(`ratio tap/bare:   rps ${b.toFixed(2)} (target >= 0.85: ${b >= 0.85 ? 'met' : 'NOT met'}), p99 ${ratio(tapped.p99ms, viaBare.p99ms)}x`);
    if (viaNginx !== undefined) {
      const r = tapped.rps / viaNginx.rps;
      console.log(`ratio tap/nginx:  rps ${r.toFixed(2)} (target >= 0.30: ${r >= 0.3 ? 'met' : 'NOT met'}), p99 ${ratio(tapped.p99ms, viaNginx.p99ms)}x; bare/nginx ${ratio(viaBare.rps, viaNginx.rps)}`);
    }
    console.log(`browser-like request: tap/bare ${ratio(browserTap.rps, browserBare.rps)}, tap/nginx ${browserNginx === undefined ? 'n/a' : ratio(browserTap.rps, browserNginx.rps)}`);
    console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)`);
    printResult('tap-overhead', {
      tap_vs_nginx: viaNginx === undefined ? 'n/a' : ratio(tapped.rps, viaNginx.rps),
      tap_vs_bare: ratio(tapped.rps, viaBare.rps),
      tap_vs_direct: ratio(tapped.rps, direct.rps),
      tap_cpu_us: tapped.cpuUs[0]?.toFixed(0) ?? 'n/a',
      bare_cpu_us: viaBare.cpuUs[0]?.toFixed(0) ?? 'n/a',
      agent_cpu_us: tapped.cpuUs[1]?.toFixed(0) ?? 'n/a',
      tap_p99_ms: tapped.p99ms.toFixed(2),
      nginx_p99_ms: viaNginx === undefined ? 'n/a' : viaNginx.p99ms.toFixed(2),
      browser_tap_vs_bare: ratio(browserTap.rps, browserBare.rps),
      browser_tap_vs_nginx: browserNginx === undefined ? 'n/a' : ratio(browserTap.rps, browserNginx.rps),
      browser_tap_cpu_us: browserTap.cpuUs[0]?.toFixed(0) ?? 'n/a',
      browser_bare_cpu_us: browserBare.cpuUs[0]?.toFixed(0) ?? 'n/a',
      browser_agent_cpu_us: browserTap.cpuUs[1]?.toFixed(0) ?? 'n/a',
    });
  } finally {
    await stop(ng);
    for (const c of children.reverse()) await c.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
