/**
 * What the tap costs for gRPC: unary calls per second to a grpc-js workload (the tap's test
 * echo service, bench/dist/servers/grpc-echo.js) measured in the same run
 *   - through sluice-tap (the real apps/tap/dist/main.js process with --upstream-protocol h2c,
 *     each call checked by the real sluice-agent process: CheckHTTP, the engine and a local rate
 *     limiter on grpc.method that always has tokens, static discovery giving the loopback
 *     destination a service),
 *   - through a bare node:http2 proxy with no check (bench/dist/servers/bare-h2-proxy.js: h2c
 *     in, one h2c connection out, streams relayed as they are),
 *   - direct, for reference.
 * Every server is its own process; this one only runs the load: node:http2 clients over 4
 * connections, 32 calls in flight, each call's grpc-status and reply checked. Each proxy first
 * takes 3 s of unmeasured load, then the bare proxy and the tap take turns (3 rounds each); the
 * figures are the sums over the rounds. The tap's, the bare proxy's and the agent's CPU time per
 * call come from /proc.
 * Last line: `RESULT tap-h2-overhead tap_vs_bare=.. tap_vs_direct=.. tap_rps=.. bare_rps=.. direct_rps=..
 * tap_cpu_us=.. bare_cpu_us=.. agent_cpu_us=.. tap_p99_ms=.. bare_p99_ms=.. errors=.. load=..`.
 *
 *   npx tsc -p bench && node bench/dist/tap-h2-overhead.js [seconds-per-round=3] [concurrency=32]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, serverScript } from './support/bench-paths.js';
import { limitRunTime, startChildServer, type ChildServer } from './support/child-server.js';
import { closedLoop } from './support/load-loops.js';
import { processCpuMs } from './support/proc-cpu.js';
import { printResult } from './support/result-line.js';
import { Samples } from './support/samples.js';
import { unaryCaller, verifyUnary, type UnaryCaller } from './support/unary-caller.js';

const CONTROL_POINT = 'bench-grpc';
const PATH = '/sluice.test.Echo/Unary';
const LIMITERS_YAML = `- { control_point: ${CONTROL_POINT}, service: bench-svc, bucket_capacity: 1e12, fill_amount: 1e12, interval: 1s, label_key: grpc.method }\n`;

const seconds = Number(process.argv[2] ?? 3);
const concurrency = Number(process.argv[3] ?? 32);

function startAgent(dir: string): Promise<ChildServer> {
  const limiters = path.join(dir, 'limiters.yaml');
  writeFileSync(limiters, LIMITERS_YAML);
  return startChildServer({
    name: 'sluice-agent',
    command: path.join(ROOT, 'bin', 'sluice-agent'),
    args: ['--local-limiters', limiters],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]',
      SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'bench', services: ['bench-svc'] }]),
    },
    portPattern: /"msg":"server listening".*?"port":(\d+)/,
    startTimeoutMs: 60_000,
  });
}

interface Side { ok: number; errors: number; ms: number; cpuMs: number; latency: Samples; firstError?: string }

async function round(caller: UnaryCaller, side: Side, pids: number[], cpu: number[]): Promise<void> {
  const before = pids.map((p) => processCpuMs(p) ?? 0);
  const started = Date.now();
  const r = await closedLoop(caller, concurrency, seconds * 1000, side.latency);
  const ms = Date.now() - started;
  side.ms += ms;
  side.ok += Math.round(r.rps * (ms / 1000));
  side.errors += r.errors;
  side.firstError ??= r.firstError;
  pids.forEach((p, i) => { cpu[i] = (cpu[i] ?? 0) + ((processCpuMs(p) ?? 0) - (before[i] ?? 0)); });
}

const side = (): Side => ({ ok: 0, errors: 0, ms: 0, cpuMs: 0, latency: new Samples(2_000_000) });
const rps = (s: Side): number => s.ok / (s.ms / 1000);
const fixed = (n: number, d = 2): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

async function main(): Promise<void> {
  limitRunTime('tap-h2-overhead', 110_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-h2-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const workload = await startChildServer({ name: 'grpc-echo', command: process.execPath, args: [serverScript('grpc-echo')], portPattern: /PORT (\d+)/ });
  const agent = await startAgent(dir);
  const tap = await startChildServer({
    name: 'sluice-tap',
    command: process.execPath,
    args: ['--enable-source-maps', path.join(ROOT, 'apps', 'tap', 'dist', 'main.js'), '--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0',
      '--upstream', `http://127.0.0.1:${workload.port}`, '--upstream-protocol', 'h2c', '--agent', `127.0.0.1:${agent.port}`, '--control-point', CONTROL_POINT],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
    portPattern: /"tap started","meta":\{"listen":\{"host":"[^"]*","port":(\d+)\}/,
    startTimeoutMs: 60_000,
  });
  const bare = await startChildServer({ name: 'bare-h2-proxy', command: process.execPath, args: ['--enable-source-maps', serverScript('bare-h2-proxy'), String(workload.port)], portPattern: /PORT (\d+)/ });
  const target = (port: number) => ({ port, path: PATH, message: Buffer.from('ping-payload'), connections: 4 });
  for (const port of [workload.port, bare.port, tap.port]) await verifyUnary(target(port));
  const callers = {
    direct: await unaryCaller('node-h2', target(workload.port)),
    bare: await unaryCaller('node-h2', target(bare.port)),
    tap: await unaryCaller('node-h2', target(tap.port)),
  };
  // Unmeasured load: freshly started processes are slow for their first seconds.
  for (const c of [callers.bare, callers.tap]) await closedLoop(c, concurrency, 3000);
  const sides = { direct: side(), bare: side(), tap: side() };
  const tapCpu: number[] = [];
  const bareCpu: number[] = [];
  const directCpu: number[] = [];
  await round(callers.direct, sides.direct, [workload.pid], directCpu);
  for (let i = 0; i < 3; i++) {
    await round(callers.bare, sides.bare, [bare.pid], bareCpu);
    await round(callers.tap, sides.tap, [tap.pid, agent.pid], tapCpu);
  }
  const calls = (s: Side): number => s.ok + s.errors;
  const result = {
    tap_vs_bare: fixed(rps(sides.tap) / rps(sides.bare)),
    tap_vs_direct: fixed(rps(sides.tap) / rps(sides.direct)),
    tap_rps: fixed(rps(sides.tap), 0),
    bare_rps: fixed(rps(sides.bare), 0),
    direct_rps: fixed(rps(sides.direct), 0),
    tap_cpu_us: fixed(((tapCpu[0] ?? 0) * 1000) / calls(sides.tap), 1),
    bare_cpu_us: fixed(((bareCpu[0] ?? 0) * 1000) / calls(sides.bare), 1),
    agent_cpu_us: fixed(((tapCpu[1] ?? 0) * 1000) / calls(sides.tap), 1),
    tap_p99_ms: fixed(sides.tap.latency.percentile(0.99)),
    bare_p99_ms: fixed(sides.bare.latency.percentile(0.99)),
    errors: sides.tap.errors + sides.bare.errors + sides.direct.errors,
    load: os.loadavg().map((x) => x.toFixed(2)).join('/'),
  };
  const firstError = sides.tap.firstError ?? sides.bare.firstError ?? sides.direct.firstError;
  if (firstError !== undefined) console.log(`first error: ${firstError}`);
  console.log(`direct ${result.direct_rps}/s, bare h2 proxy ${result.bare_rps}/s, tap ${result.tap_rps}/s (tap ÷ bare ${result.tap_vs_bare})`);
  for (const c of Object.values(callers)) c.close();
  await Promise.all([tap.stop(), bare.stop(), agent.stop(), workload.stop()]);
  printResult('tap-h2-overhead', result);
}

await main();
