import { loadClientTls } from '@sluice/clients';
import { timerDurationMs, type EtcdConfig } from '@sluice/config';
import { InvalidArgumentError } from '@sluice/errors';
import type { IOptions } from 'etcd3';

/** What the etcd3 client is built from, plus the lease TTL in whole seconds (etcd's unit). */
export interface ResolvedEtcdOptions {
  client: IOptions;
  leaseTtlSeconds: number;
  /** Settings that the etcd3 client cannot honour, to be logged once. */
  unsupported: string[];
}

/**
 * A fault policy that runs the call once: retries, backoff and state are this
 * lib's (etcd3's default circuit breaker refuses every call for 5 s after three
 * failures, which would hide a returning etcd).
 */
const RUN_ONCE = {
  execute: <T>(fn: (ctx: { signal: AbortSignal; attempt: number }) => PromiseLike<T> | T): Promise<T> =>
    Promise.resolve().then(() => fn({ signal: new AbortController().signal, attempt: 0 })),
};
type FaultPolicy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/**
 * The etcd3 options of an EtcdConfig: endpoints, user and password, TLS
 * files (libs/clients' loader), and a deadline on every unary call so that a
 * silent server cannot hold an operation forever. Throws an
 * InvalidArgumentError naming the field for a bad lease TTL, no endpoints or
 * unreadable TLS files.
 */
export function resolveEtcdOptions(config: EtcdConfig, callTimeoutMs: number): ResolvedEtcdOptions {
  if (config.endpoints.length === 0) throw new InvalidArgumentError('etcd.endpoints: at least one endpoint is required', 'etcd.endpoints');
  const ttlMs = timerDurationMs(config.lease_ttl, 'etcd.lease_ttl');
  if (!(ttlMs >= 1000)) throw new InvalidArgumentError(`etcd.lease_ttl: ${JSON.stringify(config.lease_ttl)} is shorter than etcd's minimum of 1s`, 'etcd.lease_ttl');
  const unsupported: string[] = [];
  const client: IOptions = {
    hosts: [...config.endpoints],
    faultHandling: { host: () => RUN_ONCE as unknown as FaultPolicy, global: RUN_ONCE as unknown as FaultPolicy },
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + callTimeoutMs }),
    grpcOptions: {
      // Reconnect attempts of the channel itself; the lib's own retries come on top.
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 5000,
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5000,
      'grpc.keepalive_permit_without_calls': 1,
    },
  };
  if (config.username !== '') client.auth = { username: config.username, password: config.password };
  const tls = config.tls;
  if (tls.ca_file !== '' || tls.cert_file !== '' || tls.key_file !== '') {
    const material = loadClientTls(tls, 'etcd.tls');
    client.credentials = {
      // Absent: grpc uses the system's roots.
      rootCertificate: material.ca as Buffer,
      ...(material.key !== undefined ? { privateKey: material.key } : {}),
      ...(material.cert !== undefined ? { certChain: material.cert } : {}),
    };
  }
  if (tls.insecure_skip_verify) unsupported.push('etcd.tls.insecure_skip_verify (the gRPC channel always verifies the server)');
  if (tls.key_log_file !== '') unsupported.push('etcd.tls.key_log_file');
  return { client, leaseTtlSeconds: Math.ceil(ttlMs / 1000), unsupported };
}
