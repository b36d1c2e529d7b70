import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { createServer, type ServerConfig, type SluiceServer } from '@sluice/server';
import type { LimiterKind } from '../check/component.js';
import { QUOTA_SCHEDULER_INFO, SCHEDULER_INFO } from '../limiters/limiter-details.js';
import { RATE_LIMITER_KIND } from '../limiters/rate-limiter.js';
import { SAMPLER_KIND } from '../limiters/sampler.js';

/** Test and benchmark support: a server config with the documented defaults on 127.0.0.1:0. */
export function testServerConfig(writeTimeout = '45s'): ServerConfig {
  return {
    listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' },
    grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 25, 100, 250, 1000] },
    http: {
      disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 25, 100, 250, 1000], max_header_bytes: 1048576,
      read_header_timeout: '10s', read_timeout: '10s', write_timeout: writeTimeout,
    },
    grpc_gateway: { grpc_server_address: '' },
    tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false },
  };
}

/** Create a real server, let `setup` register services, start it. */
export async function startTestServer(setup: (server: SluiceServer) => void, writeTimeout?: string): Promise<{ server: SluiceServer; grpcAddress: string; base: string }> {
  const server = createServer(testServerConfig(writeTimeout), { registry: new Registry() });
  setup(server);
  await server.start();
  const { port } = server.address();
  return { server, grpcAddress: `127.0.0.1:${port}`, base: `http://127.0.0.1:${port}` };
}

/**
 * A scheduler's kind for this lib's tests (the load scheduler's own is in @sluice/scheduler, which
 * depends on this lib): the last group, 503 NO_TOKENS, SchedulerInfo; it reads everything.
 */
export const TEST_SCHEDULER_KIND: LimiterKind = {
  name: 'load_scheduler', group: 2, rejectReason: 'REJECT_REASON_NO_TOKENS', deniedStatus: 503, counter: 'workload', details: SCHEDULER_INFO,
  reads: (_limiter, into) => { into.all = true; },
};

/** A quota scheduler's kind for this lib's tests (its own is in @sluice/scheduler): QuotaSchedulerInfo; it reads everything. */
export const TEST_QUOTA_SCHEDULER_KIND: LimiterKind = {
  name: 'quota_scheduler', group: 2, rejectReason: 'REJECT_REASON_NO_TOKENS', deniedStatus: 503, counter: 'workload', details: QUOTA_SCHEDULER_INFO,
  reads: (_limiter, into) => { into.all = true; },
};

/** The limiter kinds by a short name, for fixtures. */
export const TEST_KINDS = { sampler: SAMPLER_KIND, rate_limiter: RATE_LIMITER_KIND, scheduler: TEST_SCHEDULER_KIND, quota_scheduler: TEST_QUOTA_SCHEDULER_KIND } as const;

/** A client of an OTLP collector service's `Export` on `address`: the request as bytes, the answer decoded by `decode`. */
export interface OtlpExportClient<R> {
  export(body: Buffer): Promise<R>;
  close(): void;
}

export function otlpExportClient<R>(address: string, service: string, decode: (b: Buffer) => unknown): OtlpExportClient<R> {
  const Ctor = grpc.makeGenericClientConstructor({
    Export: {
      path: `/${service}/Export`, requestStream: false, responseStream: false, originalName: 'export',
      requestSerialize: (b: Buffer) => b, requestDeserialize: (b: Buffer) => b,
      responseSerialize: (b: Buffer) => b, responseDeserialize: decode,
    },
  }, 'ExportService');
  const client = new Ctor(address, grpc.credentials.createInsecure()) as unknown as grpc.Client
    & { Export: (b: Buffer, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: R) => void) => void };
  return {
    export: (body) => new Promise((resolve, reject) => {
      client.Export(body, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res)));
    }),
    close: () => client.close(),
  };
}
