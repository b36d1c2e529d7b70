import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { SluiceError, ErrorCode } from '@sluice/errors';
import { Registry } from 'prom-client';
import type { ServerConfig } from './config.js';
import { createServer } from './create-server.js';
import type { Logger, SluiceServer } from './types.js';
import { unary } from './unary.js';

/** Test fixtures (tests and the benchmark only): the echo service and a server config with the documented defaults. */
export const ECHO_PROTO = fileURLToPath(new URL('../src/testdata/echo.proto', import.meta.url));
export const ECHO_SERVICE = 'sluice.test.echo.v1.EchoService';

export const echoPackage = protoLoader.loadSync(ECHO_PROTO, { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true });
const loaded = grpc.loadPackageDefinition(echoPackage) as unknown as {
  sluice: { test: { echo: { v1: { EchoService: grpc.ServiceClientConstructor } } } };
};
export const EchoClient = loaded.sluice.test.echo.v1.EchoService;

export interface EchoRequest { message: string; delay_ms: number; fail_code: number; fail_message: string; meta: { key: string } | null }
export interface EchoResponse { message: string; served_by: string }

export const echoImpl: grpc.UntypedServiceImplementation = {
  Echo: unary<EchoRequest, EchoResponse>(async (req) => {
    if (req.delay_ms > 0) await new Promise((r) => setTimeout(r, req.delay_ms));
    if (req.fail_code > 0) {
      if (req.fail_code === 999) throw new Error('secret internal detail');
      throw new SluiceError(ErrorCode.UNAVAILABLE, req.fail_message || 'echo failed', { grpcCode: req.fail_code });
    }
    return { message: req.message, served_by: 'echo' };
  }),
};

export function defaultConfig(overrides: {
  listener?: Partial<ServerConfig['listener']>;
  grpc?: Partial<ServerConfig['grpc']>;
  http?: Partial<ServerConfig['http']>;
  grpc_gateway?: Partial<ServerConfig['grpc_gateway']>;
  tls?: Partial<ServerConfig['tls']>;
} = {}): ServerConfig {
  return {
    listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp', ...overrides.listener },
    grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 25, 100, 250, 1000], ...overrides.grpc },
    http: {
      disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 25, 100, 250, 1000], max_header_bytes: 1048576,
      read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s', ...overrides.http,
    },
    grpc_gateway: { grpc_server_address: '', ...overrides.grpc_gateway },
    tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false, ...overrides.tls },
  };
}

export interface Started { server: SluiceServer; registry: Registry; port: number; base: string }

/** Start a server with the echo service (and whatever `setup` adds) on 127.0.0.1:0. */
export async function startEchoServer(config: ServerConfig, setup?: (server: SluiceServer) => void, logger?: Partial<Logger>): Promise<Started> {
  const registry = new Registry();
  const noop = (): void => {};
  const server = createServer(config, { registry, ...(logger !== undefined ? { logger: { error: noop, warn: noop, info: noop, debug: noop, ...logger } } : {}) });
  server.addService(EchoClient.service, echoImpl);
  server.app.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  setup?.(server);
  await server.start();
  const { port } = server.address();
  return { server, registry, port, base: `http://127.0.0.1:${port}` };
}

/** Call Echo over gRPC; resolves the response or rejects with the ServiceError. */
export function callEcho(client: grpc.Client, req: Partial<EchoRequest>, deadlineMs = 5000): Promise<EchoResponse> {
  return new Promise((resolve, reject) => {
    (client as unknown as { Echo: (r: Partial<EchoRequest>, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v?: EchoResponse) => void) => void })
      .Echo(req, { deadline: Date.now() + deadlineMs }, (err, value) => (err ? reject(err) : resolve(value!)));
  });
}
