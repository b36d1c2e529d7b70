/**
 * Closed-loop load on an HTTP proxy for the proxy benches (tap-overhead, inproc-tap): wrk when
 * installed, else keep-alive loops in this process; rate, p99 and CPU of given processes per
 * request, phases combined over rounds.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { processCpuMs } from './proc-cpu.js';

export interface Result { rps: number; p99ms: number; errors: number; requests: number }

/** Header fields the load sends besides Host. */
export type Headers = ReadonlyArray<readonly [string, string]>;

function parseWrkDuration(v: string, unit: string): number {
  const n = Number(v);
  return unit === 'us' ? n / 1000 : unit === 'ms' ? n : unit === 's' ? n * 1000 : n * 60_000;
}

/** Runs wrk (a child process). */
export async function runWrk(wrk: string, url: string, seconds: number, connections: number, headers: Headers): Promise<Result> {
  const headerArgs = headers.flatMap(([n, v]) => ['-H', `${n}: ${v}`]);
  const child = spawn(wrk, ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', ...headerArgs, url], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  return { rps: Number(rps[1]), p99ms: parseWrkDuration(p99[1] as string, p99[2] as string), errors, requests };
}

/** Fallback load: `connections` keep-alive loops in this process. */
export async function runLoop(url: string, seconds: number, connections: number, headers: Headers): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + seconds * 1000;
  const one = (): Promise<void> => new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get(url, { agent, headers: Object.fromEntries(headers) }, (res) => {
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
  return { rps: latencies.length / elapsed, p99ms: latencies[Math.floor(0.99 * (latencies.length - 1))] ?? NaN, errors, requests: latencies.length };
}

export type Phase = Result & { cpuUs: number[] };

/** Phases taken in turns: ROUNDS of each target. */
export const ROUNDS = 2;

/** Seconds of unmeasured load each proxy takes once, before the rounds. */
export const WARM_UP_S = 4;

/** Several phases of one target as one: mean rate, worst p99, CPU per request over all its requests. */
export function combine(phases: readonly Phase[]): Phase {
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

/** Warm-up, then one measured phase; `cpuOf` pids get their CPU time per request of that phase (us). */
export async function measure(name: string, url: string, seconds: number, connections: number, wrk: string | undefined, cpuOf: number[] = [], headers: Headers = []): Promise<Result & { cpuUs: number[] }> {
  const load = (s: number): Promise<Result> => (wrk !== undefined ? runWrk(wrk, url, s, connections, headers) : runLoop(url, s, connections, headers));
  await load(1); // warm-up: JIT, keep-alive pools, the agent channel
  const before = cpuOf.map((p) => processCpuMs(p) ?? NaN);
  const r = await load(seconds);
  const cpuUs = cpuOf.map((p, i) => (((processCpuMs(p) ?? NaN) - (before[i] as number)) * 1000) / r.requests);
  console.log(`${name.padEnd(16)} ${Math.round(r.rps).toString().padStart(7)} req/s   p99 ${r.p99ms.toFixed(2).padStart(7)} ms   errors ${r.errors}`);
  return { ...r, cpuUs };
}
