/**
 * Check over gRPC on loopback: the Sluice FlowControlService.Check (engine with one
 * token-bucket rate limiter that always has tokens, on @sluice/server's shared port) against
 * a no-op grpc-js unary method with the same message types (CheckRequest → a fixed
 * CheckResponse) on a plain grpc-js server, measured in the same run. The load generator
 * runs in a worker thread so that it does not share the servers' event loop.
 *
 * Phase 1: closed loop (peak throughput, p50/p99) for each, interleaved rounds.
 * Phase 2: open loop at half the no-op's peak rate for each: p50/p99.
 *
 *   npx tsc -p bench && node bench/dist/check-grpc.js [seconds-per-phase=4] [concurrency=32]
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { createServer } from '@sluice/server';
import { serviceClient } from '@sluice/proto';
import { Engine, applyLocalLimiters, loadLocalLimiters, registerFlowControlServices, toCheckResponse } from '@sluice/flowcontrol';
import { createStaticDiscovery } from '@sluice/discovery';

interface Job { address: string; mode: 'closed' | 'open'; ms: number; concurrency: number; rate: number }
interface Result { ops: number; p50: number; p99: number; errors: number; sent: number }

const LABELS = { user: 'alice', 'http.method': 'GET', tier: 'gold' };

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function runClient(job: Job): Promise<Result> {
  const Ctor = serviceClient('flowControl');
  const client = new Ctor(job.address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
    Check(req: unknown, cb: (err: grpc.ServiceError | null) => void): void;
  };
  await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 5000, (e) => (e ? reject(e) : resolve())));
  const lat = new Float64Array(2_000_000);
  let n = 0;
  let errors = 0;
  let sent = 0;
  const req = { control_point: 'bench', labels: LABELS };
  const once = (): Promise<void> => new Promise((resolve) => {
    const t0 = performance.now();
    sent++;
    client.Check(req, (err) => {
      if (err) errors++;
      else if (n < lat.length) lat[n++] = performance.now() - t0;
      resolve();
    });
  });
  // warm-up
  const warm = Date.now() + 300;
  await Promise.all(Array.from({ length: 8 }, async () => { while (Date.now() < warm) await once(); }));
  n = 0; errors = 0; sent = 0;
  const started = performance.now();
  if (job.mode === 'closed') {
    const deadline = Date.now() + job.ms;
    await Promise.all(Array.from({ length: job.concurrency }, async () => { while (Date.now() < deadline) await once(); }));
  } else {
    const inflight: Promise<void>[] = [];
    const end = started + job.ms;
    let due = 0;
    await new Promise<void>((resolve) => {
      const tick = (): void => {
        const now = performance.now();
        const target = Math.floor(((Math.min(now, end) - started) / 1000) * job.rate);
        while (due < target) { inflight.push(once()); due++; }
        if (now >= end) resolve();
        else setTimeout(tick, 1);
      };
      tick();
    });
    await Promise.all(inflight);
  }
  const elapsed = (performance.now() - started) / 1000;
  client.close();
  const sorted = lat.slice(0, n).sort();
  return { ops: n / elapsed, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), errors, sent };
}

function inWorker(job: Job): Promise<Result> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: job });
    w.once('message', (r: Result) => resolve(r));
    w.once('error', reject);
  });
}

async function main(): Promise<void> {
  const phaseMs = Math.min(5, Math.max(1, Number(process.argv[2] ?? 4))) * 1000;
  const concurrency = Math.max(1, Number(process.argv[3] ?? 32));

  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters('- { control_point: bench, bucket_capacity: 1e12, fill_amount: 1e12, interval: 1s, label_key: user }'));
  const sluice = createServer({
    listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' },
    grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 25, 100, 250, 1000] },
    http: { disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 25, 100, 250, 1000], max_header_bytes: 1048576, read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s' },
    grpc_gateway: { grpc_server_address: '' },
    tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false },
  }, { registry: new Registry() });
  registerFlowControlServices(sluice, engine, createStaticDiscovery({ entities: [{ ip_address: '127.0.0.1', uid: 'bench', services: ['bench-svc'] }] }));
  await sluice.start();

  // The baseline: same service definition and messages, Check answers a fixed response.
  const fixed = toCheckResponse(await engine.check({ controlPoint: 'bench', labels: LABELS, services: ['bench-svc'] }));
  const noop = new grpc.Server();
  noop.addService(serviceClient('flowControl').service, {
    Check: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, fixed),
  });
  const noopPort = await new Promise<number>((resolve, reject) => noop.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));

  const targets = { noop: `127.0.0.1:${noopPort}`, sluice: `127.0.0.1:${sluice.address().port}` };
  const fmt = (r: Result): string => `${Math.round(r.ops).toString().padStart(7)} req/s  p50 ${r.p50.toFixed(3)} ms  p99 ${r.p99.toFixed(3)} ms  errors ${r.errors}`;
  try {
    const peak: Record<string, Result> = {};
    for (const name of ['noop', 'sluice', 'noop', 'sluice'] as const) {
      const r = await inWorker({ address: targets[name], mode: 'closed', ms: phaseMs / 2, concurrency, rate: 0 });
      const prev = peak[name];
      peak[name] = prev === undefined ? r : { ops: (prev.ops + r.ops) / 2, p50: (prev.p50 + r.p50) / 2, p99: (prev.p99 + r.p99) / 2, errors: prev.errors + r.errors, sent: prev.sent + r.sent };
    }
    console.log(`peak (closed loop, concurrency ${concurrency}):`);
    console.log(`  no-op grpc-js Check : ${fmt(peak.noop)}`);
    console.log(`  Sluice Check        : ${fmt(peak.sluice)}`);
    console.log(`  throughput ratio    : ${(peak.sluice.ops / peak.noop.ops).toFixed(3)} (target >= 0.8)`);
    const rate = Math.round(peak.noop.ops / 2);
    const half: Record<string, Result> = {};
    for (const name of ['noop', 'sluice'] as const) half[name] = await inWorker({ address: targets[name], mode: 'open', ms: phaseMs, concurrency, rate });
    console.log(`open loop at half the no-op peak (${rate} req/s):`);
    console.log(`  no-op grpc-js Check : ${fmt(half.noop)}`);
    console.log(`  Sluice Check        : ${fmt(half.sluice)}`);
    console.log(`  Sluice p99 ${half.sluice.p99.toFixed(3)} ms (target < 1 ms); p99 ratio to no-op ${(half.sluice.p99 / half.noop.p99).toFixed(2)}`);
  } finally {
    noop.forceShutdown();
    await sluice.shutdown(1000);
  }
}

if (isMainThread) {
  main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
} else {
  runClient(workerData as Job).then((r) => parentPort?.postMessage(r), (err: unknown) => { console.error(err); process.exit(1); });
}
