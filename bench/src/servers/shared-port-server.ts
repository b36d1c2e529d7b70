/**
 * Server side of the shared-port bench, one variant per process:
 *  - `dedicated-http`: express on its own node:http server, GET /hello;
 *  - `dedicated-grpc`: a plain grpc-js server with the Ping method;
 *  - `shared`: @sluice/server with the documented defaults serving both on one port;
 *  - `dedicated-https`, `dedicated-grpcs`, `shared-tls`: the same over TLS, with the certificate and
 *    key files named by SLUICE_BENCH_TLS_CERT and SLUICE_BENCH_TLS_KEY.
 * Prints `PORT <n>` once listening on 127.0.0.1; exits on SIGTERM/SIGINT or when stdin closes.
 *
 *   node bench/dist/servers/shared-port-server.js dedicated-http|dedicated-grpc|shared|dedicated-https|dedicated-grpcs|shared-tls
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import express from 'express';
import { Registry } from 'prom-client';
import { createServer } from '@sluice/server';
import { PING_PATH } from '../support/ping-fixture.js';

const identity = (b: Buffer): Buffer => b;
const pingService: grpc.ServiceDefinition = {
  Ping: { path: PING_PATH, requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity },
};
const pong = Buffer.from('pong');
const pingImpl: grpc.UntypedServiceImplementation = { Ping: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => cb(null, pong) };
const helloRoute = (_req: express.Request, res: express.Response): void => { res.json({ hello: 'world' }); };

const certFile = process.env.SLUICE_BENCH_TLS_CERT ?? '';
const keyFile = process.env.SLUICE_BENCH_TLS_KEY ?? '';

async function start(variant: string | undefined): Promise<{ port: number; close: () => void }> {
  switch (variant) {
    case 'dedicated-https': {
      const app = express();
      app.get('/hello', helloRoute);
      const server = https.createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), ALPNProtocols: ['http/1.1'] }, app);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return { port: (server.address() as AddressInfo).port, close: () => { server.closeAllConnections(); server.close(); } };
    }
    case 'dedicated-grpcs': {
      const server = new grpc.Server();
      server.addService(pingService, pingImpl);
      const creds = grpc.ServerCredentials.createSsl(null, [{ cert_chain: readFileSync(certFile), private_key: readFileSync(keyFile) }]);
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync('127.0.0.1:0', creds, (err, p) => (err ? reject(err) : resolve(p))));
      return { port, close: () => server.forceShutdown() };
    }
    case 'dedicated-http': {
      const app = express();
      app.get('/hello', helloRoute);
      const server = http.createServer(app);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return { port: (server.address() as AddressInfo).port, close: () => { server.closeAllConnections(); server.close(); } };
    }
    case 'dedicated-grpc': {
      const server = new grpc.Server();
      server.addService(pingService, pingImpl);
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
      return { port, close: () => server.forceShutdown() };
    }
    case 'shared':
    case 'shared-tls': {
      const tls = variant === 'shared-tls';
      const shared = createServer({
        listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' },
        grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 25, 100, 250, 1000] },
        http: { disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 25, 100, 250, 1000], max_header_bytes: 1048576,
          read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s' },
        grpc_gateway: { grpc_server_address: '' },
        tls: { allowed_cn: '', cert_file: tls ? certFile : '', client_ca_file: '', key_file: tls ? keyFile : '', enabled: tls },
      }, { registry: new Registry() });
      shared.addService(pingService, pingImpl);
      shared.app.get('/hello', helloRoute);
      await shared.start();
      return { port: shared.address().port, close: () => void shared.shutdown({ deadlineMs: 500 }) };
    }
    default:
      throw new Error(`unknown variant ${variant ?? '(none)'}: want dedicated-http, dedicated-grpc or shared`);
  }
}

const server = await start(process.argv[2]);
process.stdout.write(`PORT ${server.port}\n`);
const stop = (): void => { server.close(); process.exit(0); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
