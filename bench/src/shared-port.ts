/**
 * Requests per second of a trivial HTTP GET route and a trivial gRPC unary method served on
 * the shared port of @sluice/server (protocol routing, metrics, write timeout included),
 * against the same handlers on a dedicated express server and a dedicated grpc-js server,
 * measured in the same run with an in-process load generator on loopback. Each variant gets
 * `seconds` of load in total, split into interleaved rounds so drift on a shared machine
 * hits all variants alike.
 *
 *   npx tsc -p bench && node bench/dist/shared-port.js [seconds-per-variant=5] [concurrency=16]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import express from 'express';
import { Registry } from 'prom-client';
import { createServer } from '@sluice/server';

const phaseMs = Math.max(1, Number(process.argv[2] ?? 5)) * 1000;
const concurrency = Math.max(1, Number(process.argv[3] ?? 16));
const rounds = 5;
const warmupMs = 500;

const identity = (b: Buffer): Buffer => b;
const pingService: grpc.ServiceDefinition = {
  Ping: {
    path: '/sluice.bench.v1.Bench/Ping', requestStream: false, responseStream: false,
    requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity,
  },
};
const pong = Buffer.from('pong');
const pingImpl: grpc.UntypedServiceImplementation = { Ping: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => cb(null, pong) };
const helloRoute = (_req: express.Request, res: express.Response): void => { res.json({ hello: 'world' }); };

/** Run `once` in `concurrency` loops for `ms`; returns completed operations per second. */
async function load(once: () => Promise<void>, ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  let done = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) {
      await once();
      done++;
    }
  }));
  return done / (Number(process.hrtime.bigint() - started) / 1e9);
}

function httpGetter(port: number): { once: () => Promise<void>; close: () => void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const once = (): Promise<void> => new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/hello', agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      res.resume();
      res.on('end', resolve);
    }).on('error', reject);
  });
  return { once, close: () => agent.destroy() };
}

function grpcCaller(port: number): { once: () => Promise<void>; close: () => void } {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const ping = Buffer.from('ping');
  const once = (): Promise<void> => new Promise((resolve, reject) => {
    client.makeUnaryRequest('/sluice.bench.v1.Bench/Ping', identity, identity, ping, (err) => (err ? reject(err) : resolve()));
  });
  return { once, close: () => client.close() };
}

interface Variant { name: string; gen: { once: () => Promise<void>; close: () => void }; ops: number; seconds: number }

function variant(name: string, port: number, make: (port: number) => { once: () => Promise<void>; close: () => void }): Variant {
  return { name, gen: make(port), ops: 0, seconds: 0 };
}

async function run(variants: Variant[]): Promise<Map<string, number>> {
  for (const v of variants) await load(v.gen.once, warmupMs);
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const ms = phaseMs / rounds;
      const rps = await load(v.gen.once, ms);
      v.ops += rps * (ms / 1000);
      v.seconds += ms / 1000;
    }
  }
  const result = new Map<string, number>();
  for (const v of variants) {
    const rps = v.ops / v.seconds;
    result.set(v.name, rps);
    console.log(`${v.name.padEnd(16)} ${rps.toFixed(0).padStart(8)} req/s`);
    v.gen.close();
  }
  return result;
}

async function main(): Promise<void> {
  // Dedicated servers.
  const app = express();
  app.get('/hello', helloRoute);
  const dedicatedHttp = http.createServer(app);
  await new Promise<void>((r) => dedicatedHttp.listen(0, '127.0.0.1', r));
  const dedicatedGrpc = new grpc.Server();
  dedicatedGrpc.addService(pingService, pingImpl);
  const grpcPort = await new Promise<number>((resolve, reject) =>
    dedicatedGrpc.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))));

  // The shared port, with SPEC defaults.
  const shared = createServer({
    listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' },
    grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 25, 100, 250, 1000] },
    http: { disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 25, 100, 250, 1000], max_header_bytes: 1048576,
      read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s' },
    grpc_gateway: { grpc_server_address: '' },
    tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false },
  }, { registry: new Registry() });
  shared.addService(pingService, pingImpl);
  shared.app.get('/hello', helloRoute);
  await shared.start();
  const sharedPort = shared.address().port;

  console.log(`shared-port benchmark: ${phaseMs / 1000}s per variant in ${rounds} interleaved rounds, ${concurrency} concurrent, loopback`);
  try {
    const rps = await run([
      variant('http dedicated', (dedicatedHttp.address() as AddressInfo).port, httpGetter),
      variant('http shared', sharedPort, httpGetter),
      variant('grpc dedicated', grpcPort, grpcCaller),
      variant('grpc shared', sharedPort, grpcCaller),
    ]);
    const [httpDedicated, httpShared, grpcDedicated, grpcShared] = ['http dedicated', 'http shared', 'grpc dedicated', 'grpc shared'].map((n) => rps.get(n)!);
    const line = (what: string, s: number, d: number): string =>
      `${what}: shared/dedicated = ${(s / d).toFixed(3)} (cost ${((1 - s / d) * 100).toFixed(1)}%)`;
    console.log(line('http', httpShared, httpDedicated));
    console.log(line('grpc', grpcShared, grpcDedicated));
  } finally {
    await shared.shutdown(1000);
    dedicatedHttp.closeAllConnections();
    dedicatedHttp.close();
    dedicatedGrpc.forceShutdown();
  }
}

await main();
