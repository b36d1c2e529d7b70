/**
 * One process per pod: the agent serving the traffic tap itself (`tap.enabled`, as the injector's
 * sidecar mode runs it, with the Node flags the injector gives it: sidecarAgentNodeFlags of the
 * injector's defaults) against a bare Node proxy with the tap's forwarding core and no check
 * (bench/src/servers/bare-tap-proxy.ts), in the same run, for a tiny workload (node:http answering
 * 200 "ok"). For context, the separate tap (apps/tap, asking a second agent over gRPC) is measured
 * in the same rounds. Every request through a tap is decided by the engine: a local rate limiter
 * on the control point that always has tokens, static discovery giving the loopback destination a
 * service (as in tap-overhead). Each proxy takes two turns of 4 s of unmeasured load (JIT, pools,
 * the heap grown to its working size), then rounds (5 by default) in which every target takes one measured
 * phase, the order turned round every other round (bare, in-process, separate; then separate,
 * in-process, bare) so that neither side always runs first after the other's load. The same load
 * (wrk, same connections and seconds) goes to every target. The ratio is the median of the
 * per-round ratios (each from phases seconds apart, under the same machine load), CPU per request
 * the median over rounds; the per-round ratios and the load average before and after are printed,
 * so a noisy run shows as such. Memory: VmRSS of the agent serving the tap, and of an agent plus a
 * separate tap, idle (5 s after start) and after the load.
 * Target: in-process tap ≥ 0.85 of the bare proxy.
 * Last line: `RESULT inproc-tap inproc_vs_bare=.. inproc_vs_bare_rounds=.. separate_vs_bare=.. inproc_cpu_us=.. bare_cpu_us=.. inproc_rss_mb=.. ...`.
 *
 *   npx tsc -p bench && node scripts/run-bench.mjs inproc-tap      (or node bench/dist/inproc-tap.js [seconds-per-phase=4] [connections=32] [rounds=5])
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_INJECT_OPTIONS, sidecarAgentNodeFlags } from '@sluice/kube';
import { ROOT } from './support/bench-paths.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { combine, measure, runLoop, runWrk, WARM_UP_S, type Phase } from './support/proxy-load.js';
import { printResult } from './support/result-line.js';

const CONTROL_POINT = 'ingress';
const LIMITERS_YAML = `- { control_point: ${CONTROL_POINT}, service: bench-svc, bucket_capacity: 1e12, fill_amount: 1e12, interval: 1s, label_key: http.method }\n`;
const WORKLOAD = `
const http = require('node:http');
const s = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }); res.end('ok'); });
s.keepAliveTimeout = 65000;
s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;
const IDLE_MS = 5000;

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** VmRSS of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? NaN : Number(m[1]) / 1024;
}

function agentEnv(dir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]',
    SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'bench', services: ['bench-svc'] }]),
    ...extra,
  };
}

function ratio(a: number, b: number): string {
  return Number.isFinite(a / b) ? (a / b).toFixed(2) : 'n/a';
}

/** The median of finite values (NaN when there are none). */
function median(values: readonly number[]): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2;
}

/** Unmeasured turns of load per proxy before the rounds. */
const WARM_UP_TURNS = 2;

async function main(): Promise<void> {
  const seconds = Math.min(5, Math.max(1, Number(process.argv[2] ?? 4)));
  const connections = Math.max(1, Number(process.argv[3] ?? 32));
  const rounds = Math.min(9, Math.max(2, Number(process.argv[4] ?? 5)));
  const wrk = which('wrk');
  console.log(`in-process tap: ${rounds} rounds of ${seconds} s per phase, ${connections} connections, load from ${wrk !== undefined ? 'wrk (2 threads)' : 'an in-process keep-alive loop'}; ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const children: ChildServer[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sluice-inproc-tap-bench-'));
  try {
    const limiters = path.join(tmp, 'limiters.yaml');
    writeFileSync(limiters, LIMITERS_YAML);
    const workload = await startChildServer({ name: 'workload', command: process.execPath, args: ['-e', WORKLOAD], portPattern: /port (\d+)/ });
    children.push(workload);
    const started = Date.now();
    // As injected in sidecar mode: bin/sluice-agent execs node with the agent's V8 heap flags (same pid), then the injector's.
    const sidecarFlags = sidecarAgentNodeFlags(DEFAULT_INJECT_OPTIONS);
    const inproc = await startChildServer({
      name: 'sluice-agent (tap.enabled)',
      command: path.join(ROOT, 'bin', 'sluice-agent'),
      args: ['--local-limiters', limiters],
      env: agentEnv(tmp, {
        SLUICE_AGENT_TAP_ENABLED: 'true', SLUICE_AGENT_TAP_LISTEN: '127.0.0.1:0', SLUICE_AGENT_TAP_UPSTREAM: `http://127.0.0.1:${workload.port}`,
        SLUICE_AGENT_TAP_CONTROL_POINT: CONTROL_POINT, SLUICE_NODE_FLAGS: sidecarFlags,
      }),
      portPattern: /"tap started".*?"listen":\{"host":"[^"]*","port":(\d+)\}/,
      startTimeoutMs: 60_000,
    });
    children.push(inproc);
    const agent = await startChildServer({
      name: 'sluice-agent', command: path.join(ROOT, 'bin', 'sluice-agent'), args: ['--local-limiters', limiters], env: agentEnv(tmp, {}),
      portPattern: /"msg":"server listening".*?"port":(\d+)/, startTimeoutMs: 60_000,
    });
    children.push(agent);
    const tap = await startChildServer({
      name: 'sluice-tap',
      command: path.join(ROOT, 'bin', 'sluice-tap'),
      args: ['--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0', '--upstream', `http://127.0.0.1:${workload.port}`, '--agent', `127.0.0.1:${agent.port}`, '--control-point', CONTROL_POINT],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp },
      portPattern: /"tap started".*?"listen":\{"host":"[^"]*","port":(\d+)\}/,
      startTimeoutMs: 60_000,
    });
    children.push(tap);
    const bare = await startChildServer({
      name: 'bare-tap-proxy', command: process.execPath, args: ['--enable-source-maps', path.join(ROOT, 'bench', 'dist', 'servers', 'bare-tap-proxy.js'), String(workload.port)],
      portPattern: /PORT (\d+)/, startTimeoutMs: 60_000,
    });
    children.push(bare);
    console.log(`V8 flags: the agent serving the tap as injected (bin/sluice-agent's, then ${sidecarFlags}); the agent of the separate tap as bin/sluice-agent sets them (--max-semi-space-size=4 --max-old-space-size=384), the separate tap as bin/sluice-tap; the bare proxy Node's defaults`);
    await new Promise((r) => setTimeout(r, Math.max(0, IDLE_MS - (Date.now() - started))));
    const idle = { inproc: rssMb(inproc.pid), agent: rssMb(agent.pid), tap: rssMb(tap.pid) };
    console.log(`idle RSS: agent serving the tap ${idle.inproc.toFixed(1)} MB; agent ${idle.agent.toFixed(1)} MB + separate tap ${idle.tap.toFixed(1)} MB = ${(idle.agent + idle.tap).toFixed(1)} MB`);

    const targets = [
      { name: 'bare', port: bare.port, pids: [bare.pid], phases: [] as Phase[] },
      { name: 'in-process tap', port: inproc.port, pids: [inproc.pid], phases: [] as Phase[] },
      { name: 'separate tap', port: tap.port, pids: [tap.pid, agent.pid], phases: [] as Phase[] },
    ];
    const [bares, inprocs, separates] = targets.map((t) => t.phases) as [Phase[], Phase[], Phase[]];
    for (let turn = 0; turn < WARM_UP_TURNS; turn++) {
      for (const { port } of targets) {
        await (wrk !== undefined ? runWrk(wrk, `http://127.0.0.1:${port}/`, WARM_UP_S, connections, []) : runLoop(`http://127.0.0.1:${port}/`, WARM_UP_S, connections, []));
      }
    }
    const loadBefore = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) t.phases.push(await measure(t.name, `http://127.0.0.1:${t.port}/`, seconds, connections, wrk, t.pids));
    }
    const perRound = inprocs.map((p, i) => p.rps / (bares[i] as Phase).rps);
    const separatePerRound = separates.map((p, i) => p.rps / (bares[i] as Phase).rps);
    const cpuMedian = (phases: readonly Phase[], i = 0): number => median(phases.map((p) => p.cpuUs[i] ?? NaN));
    const viaBare = combine(bares);
    const viaInproc = combine(inprocs);
    const viaSeparate = combine(separates);
    const loaded = { inproc: rssMb(inproc.pid), agent: rssMb(agent.pid), tap: rssMb(tap.pid) };
    console.log(`RSS after the load: agent serving the tap ${loaded.inproc.toFixed(1)} MB; agent ${loaded.agent.toFixed(1)} MB + separate tap ${loaded.tap.toFixed(1)} MB = ${(loaded.agent + loaded.tap).toFixed(1)} MB`);
    const inprocCpu = cpuMedian(inprocs);
    const bareCpu = cpuMedian(bares);
    const separateCpu = cpuMedian(separates, 0) + cpuMedian(separates, 1);
    console.log(`CPU per request (median of rounds): in-process tap (agent) ${inprocCpu.toFixed(0)} us; separate tap ${cpuMedian(separates, 0).toFixed(0)} us + its agent ${cpuMedian(separates, 1).toFixed(0)} us; bare proxy ${bareCpu.toFixed(0)} us`);
    const r = median(perRound);
    console.log(`ratio in-process tap/bare: rps ${r.toFixed(2)} (median of rounds ${perRound.map((x) => x.toFixed(2)).join(' ')}; target >= 0.85: ${r >= 0.85 ? 'met' : 'NOT met'}), `
      + `mean-rate ratio ${ratio(viaInproc.rps, viaBare.rps)}, p99 ${ratio(viaInproc.p99ms, viaBare.p99ms)}x; separate tap/bare ${median(separatePerRound).toFixed(2)}`);
    console.log(`errors: bare ${viaBare.errors}, in-process ${viaInproc.errors}, separate ${viaSeparate.errors}`);
    const loadAfter = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`load average before the rounds ${loadBefore}, after ${loadAfter} (${os.cpus().length} cores)`);
    printResult('inproc-tap', {
      inproc_vs_bare: r.toFixed(2),
      inproc_vs_bare_rounds: perRound.map((x) => x.toFixed(2)).join(','),
      separate_vs_bare: median(separatePerRound).toFixed(2),
      inproc_cpu_us: inprocCpu.toFixed(0),
      separate_cpu_us: separateCpu.toFixed(0),
      bare_cpu_us: bareCpu.toFixed(0),
      inproc_p99_ms: viaInproc.p99ms.toFixed(2),
      bare_p99_ms: viaBare.p99ms.toFixed(2),
      inproc_rss_mb: loaded.inproc.toFixed(1),
      separate_rss_mb: (loaded.agent + loaded.tap).toFixed(1),
      inproc_idle_rss_mb: idle.inproc.toFixed(1),
      separate_idle_rss_mb: (idle.agent + idle.tap).toFixed(1),
      load_average: loadAfter.replaceAll(' ', '/'),
    });
  } finally {
    for (const c of children.reverse()) await c.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
