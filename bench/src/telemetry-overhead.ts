/**
 * The telemetry pipeline's cost on the Check path: two real sluice-agents, the same but for
 * `prometheus.address` (remote write on, to a loopback receiver in this process that decodes
 * nothing and answers 204; export interval 1 s, ten times the default rate, so the pipeline's
 * collection and encoding weigh more than they would) against none (remote write off). Check over
 * gRPC in a closed loop, interleaved rounds per agent. Prints checks/s on ÷ off (target >= 0.95),
 * each agent's CPU time per check (user + system from /proc over its rounds: on a shared machine
 * steadier than the throughput ratio) and the resident memory of the agent with remote write on
 * (and off).
 *
 *   npx tsc -p bench && node bench/dist/telemetry-overhead.js [seconds-per-phase=4] [concurrency=32]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { serviceClient } from '@sluice/proto';
import { startAgent } from './support/agent-process.js';
import { BENCH_CHECK_REQUEST, CHECK_PATH } from './support/check-fixture.js';
import { limitRunTime, type ChildServer } from './support/child-server.js';
import { closedLoop } from './support/load-loops.js';
import { processCpuMs } from './support/proc-cpu.js';
import { printResult } from './support/result-line.js';
import { unaryCaller, verifyUnary, type UnaryCaller } from './support/unary-caller.js';

const phaseMs = Math.min(8, Math.max(1, Number(process.argv[2] ?? 4))) * 1000;
const concurrency = Math.max(1, Math.floor(Number(process.argv[3] ?? 32)));
const ROUNDS = 4;

const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

function rssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? NaN : Number(m[1]) / 1024;
}

async function main(): Promise<void> {
  limitRunTime('telemetry-overhead', 90_000);
  let writes = 0;
  let bytes = 0;
  const receiver = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => { bytes += c.length; });
    req.on('end', () => { writes++; res.writeHead(204).end(); });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const address = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const message = serviceClient('flowControl').service.Check.requestSerialize(BENCH_CHECK_REQUEST);
  const agents: ChildServer[] = [];
  try {
    agents.push(await startAgent());
    agents.push(await startAgent({ SLUICE_AGENT_PROMETHEUS_ADDRESS: address, SLUICE_AGENT_OTEL_EXPORT_INTERVAL: '1s' }));
    const callers: UnaryCaller[] = [];
    for (const a of agents) {
      const target = { port: a.port, path: CHECK_PATH, message, connections: 1 };
      await verifyUnary(target);
      callers.push(await unaryCaller('raw-h2', target));
    }
    console.log(`telemetry-overhead: agents pids ${agents.map((a) => a.pid).join(', ')} (remote write off, on), ${phaseMs / 1000}s per agent in ${ROUNDS} interleaved rounds, ${concurrency} in flight; load average ${load()} (${os.cpus().length} CPUs)`);
    for (const c of callers) await closedLoop(c, concurrency, 1000);
    const ok = [0, 0];
    const errors = [0, 0];
    const cpuMs = [0, 0];
    const roundMs = phaseMs / ROUNDS;
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, c] of callers.entries()) {
        const cpu0 = processCpuMs(agents[i].pid) ?? NaN;
        const res = await closedLoop(c, concurrency, roundMs);
        cpuMs[i] += (processCpuMs(agents[i].pid) ?? NaN) - cpu0;
        ok[i] += res.rps * (roundMs / 1000);
        errors[i] += res.errors;
      }
    }
    const rps = ok.map((n) => n / (phaseMs / 1000));
    const ratio = rps[1] / rps[0];
    const rss = agents.map((a) => rssMiB(a.pid));
    const cpuUs = cpuMs.map((m, i) => (m * 1000) / ok[i]);
    console.log(`  remote write off  ${Math.round(rps[0])} checks/s  errors ${errors[0]}  CPU ${cpuUs[0].toFixed(1)} µs/check  RSS ${rss[0].toFixed(1)} MiB`);
    console.log(`  remote write on   ${Math.round(rps[1])} checks/s  errors ${errors[1]}  CPU ${cpuUs[1].toFixed(1)} µs/check  RSS ${rss[1].toFixed(1)} MiB  (${writes} remote writes, ${(bytes / 1024).toFixed(1)} KiB received)`);
    console.log(`  checks/s on/off ${ratio.toFixed(3)} (target >= 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'}); load average ${load()}`);
    printResult('telemetry-overhead', {
      throughput_ratio: ratio.toFixed(3), off_rps: Math.round(rps[0]), on_rps: Math.round(rps[1]),
      cpu_us_off: cpuUs[0].toFixed(1), cpu_us_on: cpuUs[1].toFixed(1), cpu_ratio: (cpuUs[1] / cpuUs[0]).toFixed(3),
      rss_on_mib: rss[1].toFixed(1), rss_off_mib: rss[0].toFixed(1), remote_writes: writes, load: load().replaceAll(' ', '/'),
    });
    if (writes === 0) throw new Error('no remote write arrived: the pipeline did not run');
  } finally {
    await Promise.all(agents.map((a) => a.stop()));
    await new Promise<void>((r) => { receiver.closeAllConnections(); receiver.close(() => r()); });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
