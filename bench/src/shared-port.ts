/**
 * Requests per second of a trivial HTTP GET route and a trivial gRPC unary method served on
 * the shared port of @sluice/server (protocol routing, metrics, write timeout included),
 * against the same handlers on a dedicated express server and a dedicated grpc-js server,
 * measured in the same run on loopback.
 *
 * Method: each server variant runs in its own process (bench/dist/servers/shared-port-server.js),
 * so the load generator never shares its event loop; HTTP load comes from wrk when installed
 * (else a node:http loop in this process), gRPC load from pre-encoded HTTP/2 frames
 * (support/raw-h2-caller.ts), both a few microseconds per request, so the servers are what
 * saturates. Each variant gets a warm-up, then `seconds` of closed-loop load split into
 * interleaved rounds so drift on a shared machine hits all variants alike. The servers' CPU
 * time per request (from /proc) is reported beside the rate: it does not depend on how busy
 * the machine is.
 *
 * The TLS case (`server.tls` on) compares the shared port with an https express server and a grpc-js
 * server with TLS credentials: HTTP/1.1 over TLS from wrk, gRPC over TLS from node:http2 (h2 by ALPN,
 * which the shared port routes by content type), and, for information, the HTTP route over h2 (curl's
 * default over https), which the shared port relays to its HTTP handler.
 *
 *   npx tsc -p bench && node bench/dist/shared-port.js [seconds-per-variant=4] [concurrency=16]
 */
import os from 'node:os';
import { serverScript } from './support/bench-paths.js';
import { limitRunTime, startChildServer, type ChildServer } from './support/child-server.js';
import { httpLoad, wrk } from './support/http-load.js';
import { closedLoop } from './support/load-loops.js';
import { PING_MESSAGE, PING_PATH } from './support/ping-fixture.js';
import { processCpuMs } from './support/proc-cpu.js';
import { printResult } from './support/result-line.js';
import { selfSignedCert } from './support/tls-fixture.js';
import { unaryCaller, verifyUnary, type UnaryCaller } from './support/unary-caller.js';

const phaseMs = Math.min(5, Math.max(1, Number(process.argv[2] ?? 4))) * 1000;
const concurrency = Math.max(1, Math.floor(Number(process.argv[3] ?? 16)));
const ROUNDS = 4;
const WARMUP_MS = 1000;

interface Variant {
  name: string;
  server: ChildServer;
  /** One round of closed-loop load; resolves with requests answered and errors. */
  run(ms: number): Promise<{ rps: number; errors: number }>;
  close(): void;
  ok: number;
  errors: number;
  seconds: number;
  cpuMs: number | undefined;
}

async function httpVariant(name: string, server: ChildServer, scheme = 'http'): Promise<Variant> {
  const url = `${scheme}://127.0.0.1:${server.port}/hello`;
  return { name, server, run: (ms) => httpLoad(url, concurrency, ms), close: () => undefined, ok: 0, errors: 0, seconds: 0, cpuMs: 0 };
}

async function grpcVariant(name: string, server: ChildServer, tlsCa?: Buffer): Promise<Variant> {
  const target = { port: server.port, path: PING_PATH, message: PING_MESSAGE, connections: 1, ...(tlsCa !== undefined ? { tlsCa } : {}) };
  await verifyUnary(target);
  const caller: UnaryCaller = await unaryCaller(tlsCa === undefined ? 'raw-h2' : 'node-h2', target);
  return {
    name, server, run: (ms) => closedLoop(caller, concurrency, ms), close: () => caller.close(), ok: 0, errors: 0, seconds: 0, cpuMs: 0,
  };
}

/** GET /hello over HTTP/2 (TLS, ALPN h2), `concurrency` streams on one session: curl's default over https. */
async function h2RestVariant(name: string, server: ChildServer, ca: Buffer): Promise<Variant> {
  const http2 = await import('node:http2');
  const session = http2.connect(`https://127.0.0.1:${server.port}`, { ca, ALPNProtocols: ['h2'] });
  session.on('error', () => undefined);
  const once = (): Promise<boolean> => new Promise((resolve) => {
    const req = session.request({ ':path': '/hello' });
    let status = 0;
    req.on('response', (h) => { status = Number(h[':status']); });
    req.on('error', () => resolve(false));
    req.on('close', () => resolve(status === 200));
    req.resume();
    req.end();
  });
  if (!(await once())) throw new Error(`${name}: GET /hello over h2 did not answer 200`);
  const run = async (ms: number): Promise<{ rps: number; errors: number }> => {
    const end = performance.now() + ms;
    const t0 = performance.now();
    let ok = 0;
    let errors = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) { if (await once()) ok++; else errors++; }
    }));
    return { rps: ok / ((performance.now() - t0) / 1000), errors };
  };
  return { name, server, run, close: () => session.destroy(), ok: 0, errors: 0, seconds: 0, cpuMs: 0 };
}

async function measure(v: Variant, ms: number): Promise<void> {
  const cpu0 = processCpuMs(v.server.pid);
  const t0 = performance.now();
  const r = await v.run(ms);
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = processCpuMs(v.server.pid);
  v.ok += r.rps * seconds;
  v.errors += r.errors;
  v.seconds += seconds;
  v.cpuMs = cpu0 === undefined || cpu1 === undefined || v.cpuMs === undefined ? undefined : v.cpuMs + cpu1 - cpu0;
}

const rpsOf = (v: Variant): number => v.ok / v.seconds;
const usPerRequest = (v: Variant): number => (v.cpuMs === undefined ? NaN : (v.cpuMs * 1000) / (v.ok + v.errors));

async function main(): Promise<void> {
  limitRunTime('shared-port', 110_000);
  const servers: ChildServer[] = [];
  const variants: Variant[] = [];
  const cert = selfSignedCert();
  const env = { ...process.env, SLUICE_BENCH_TLS_CERT: cert.cert, SLUICE_BENCH_TLS_KEY: cert.key };
  const start = async (variant: string): Promise<ChildServer> => {
    const s = await startChildServer({ name: variant, command: process.execPath, args: [serverScript('shared-port-server'), variant], env, portPattern: /^PORT (\d+)$/m });
    servers.push(s);
    return s;
  };
  try {
    const shared = await start('shared');
    variants.push(await httpVariant('http dedicated', await start('dedicated-http')));
    variants.push(await httpVariant('http shared', shared));
    variants.push(await grpcVariant('grpc dedicated', await start('dedicated-grpc')));
    variants.push(await grpcVariant('grpc shared', shared));
    const sharedTls = await start('shared-tls');
    variants.push(await httpVariant('https dedicated', await start('dedicated-https'), 'https'));
    variants.push(await httpVariant('https shared', sharedTls, 'https'));
    variants.push(await grpcVariant('grpcs dedicated', await start('dedicated-grpcs'), cert.ca));
    variants.push(await grpcVariant('grpcs shared', sharedTls, cert.ca));
    variants.push(await h2RestVariant('https h2 shared', sharedTls, cert.ca));
    console.log(`shared-port: servers in their own processes, HTTP load from ${wrk() ?? 'node:http (wrk not installed)'}, gRPC from pre-encoded HTTP/2 frames; `
      + `${phaseMs / 1000}s per variant in ${ROUNDS} interleaved rounds, ${concurrency} concurrent; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (const v of variants) await v.run(WARMUP_MS);
    for (let r = 0; r < ROUNDS; r++) for (const v of variants) await measure(v, phaseMs / ROUNDS);
    for (const v of variants) {
      console.log(`  ${v.name.padEnd(17)} ${rpsOf(v).toFixed(0).padStart(8)} req/s  errors ${v.errors}  server CPU ${usPerRequest(v).toFixed(1)} us/request`);
    }
    const [httpDedicated, httpShared, grpcDedicated, grpcShared, httpsDedicated, httpsShared, grpcsDedicated, grpcsShared, h2Rest] = variants;
    const ratio = (s: Variant, d: Variant): number => rpsOf(s) / rpsOf(d);
    const cpuRatio = (s: Variant, d: Variant): number => usPerRequest(d) / usPerRequest(s);
    for (const [what, s, d] of [
      ['http', httpShared, httpDedicated], ['grpc', grpcShared, grpcDedicated], ['https', httpsShared, httpsDedicated], ['grpcs', grpcsShared, grpcsDedicated],
    ] as const) {
      console.log(`${what}: shared/dedicated = ${ratio(s, d).toFixed(3)} (cost ${((1 - ratio(s, d)) * 100).toFixed(1)}%); `
        + `CPU per request dedicated/shared = ${cpuRatio(s, d).toFixed(3)}`);
    }
    printResult('shared-port', {
      http_ratio: ratio(httpShared, httpDedicated).toFixed(3),
      grpc_ratio: ratio(grpcShared, grpcDedicated).toFixed(3),
      http_cpu_ratio: cpuRatio(httpShared, httpDedicated).toFixed(3),
      grpc_cpu_ratio: cpuRatio(grpcShared, grpcDedicated).toFixed(3),
      https_ratio: ratio(httpsShared, httpsDedicated).toFixed(3),
      grpcs_ratio: ratio(grpcsShared, grpcsDedicated).toFixed(3),
      h2_rest_vs_https: ratio(h2Rest, httpsShared).toFixed(3),
      errors: variants.reduce((a, v) => a + v.errors, 0),
    });
  } finally {
    for (const v of variants) v.close();
    await Promise.all(servers.map((s) => s.stop()));
    cert.cleanup();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
