import * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError } from '@sluice/errors';
import { NO_PROXY_CONFIG, type GRPCClientConfig, type ProxyConfig } from './config.js';
import { durationMs } from './duration.js';
import { resolveProxy } from './resolve-proxy.js';
import { loadClientTls } from './tls-files.js';

export interface GrpcClientOptions {
  /** What to dial: the target itself, or the proxy's host:port when going through one. */
  target: string;
  credentials: grpc.ChannelCredentials;
  options: grpc.ChannelOptions;
}

function hostPort(target: string): { host: string; port: string } {
  const stripped = target.replace(/^dns:(\/\/[^/]*\/)?/, '');
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(stripped);
  if (m === null) throw new InvalidArgumentError(`invalid gRPC target ${JSON.stringify(target)}: want host:port`, 'target');
  return { host: m[1], port: m[2] ?? '443' };
}

/**
 * Channel settings for a grpc-js client from GRPCClientConfig:
 * - insecure: createInsecure(); else createSsl(ca_file, key_file, cert_file) and
 *   with insecure_skip_verify a no-op checkServerIdentity and unverified chain.
 * - backoff.base_delay / max_delay: grpc.initial_reconnect_backoff_ms /
 *   grpc.max_reconnect_backoff_ms. grpc-js's reconnect backoff multiplies by 1.6
 *   with ±0.2 jitter, fixed (the documented defaults); other multiplier / jitter values
 *   apply through `connectWithBackoff`, not to grpc-js's internal reconnects.
 * - min_connection_timeout: grpc-js has no connect-timeout channel option; it is
 *   the per-attempt deadline floor used by `connectWithBackoff`.
 * - use_proxy false: grpc.enable_http_proxy 0 (grpc-js otherwise reads
 *   grpc_proxy/https_proxy/http_proxy from the environment by itself).
 *   use_proxy true: resolveProxy(`https://<target>`, client.proxy over env) decides;
 *   when a proxy applies, `target` is the proxy and grpc.http_connect_target the
 *   real target, reached with HTTP CONNECT (proxy user:password is sent as
 *   Proxy-Authorization). Only http:// proxies work with grpc-js.
 */
export function grpcClientOptions(config: GRPCClientConfig, target: string, proxy: ProxyConfig = NO_PROXY_CONFIG, env: Readonly<Record<string, string | undefined>> = process.env): GrpcClientOptions {
  const base = durationMs(config.backoff.base_delay, 'backoff.base_delay');
  const max = durationMs(config.backoff.max_delay, 'backoff.max_delay');
  durationMs(config.min_connection_timeout, 'min_connection_timeout');
  const options: grpc.ChannelOptions = {
    'grpc.initial_reconnect_backoff_ms': Math.max(1, Math.round(base)),
    'grpc.max_reconnect_backoff_ms': Math.max(1, Math.round(max)),
    'grpc.enable_http_proxy': 0,
  };
  let credentials: grpc.ChannelCredentials;
  if (config.insecure) {
    credentials = grpc.credentials.createInsecure();
  } else {
    const tls = loadClientTls(config.tls);
    credentials = grpc.credentials.createSsl(tls.ca ?? null, tls.key ?? null, tls.cert ?? null, {
      rejectUnauthorized: tls.rejectUnauthorized,
      ...(tls.checkServerIdentity === undefined ? {} : { checkServerIdentity: tls.checkServerIdentity }),
    });
  }
  if (!config.use_proxy) return { target, credentials, options };
  const { host, port } = hostPort(target);
  const via = resolveProxy(`https://${host}:${port}`, proxy, env);
  if (via === undefined) return { target, credentials, options };
  if (via.protocol !== 'http:') throw new InvalidArgumentError(`gRPC clients reach proxies over plain HTTP CONNECT; ${via.protocol} proxy ${via.host} is not supported`, 'client.proxy.https');
  options['grpc.http_connect_target'] = `dns:///${host}:${port}`;
  options['grpc.default_authority'] = `${host}:${port}`;
  if (via.username) options['grpc.http_connect_creds'] = decodeURIComponent(via.password ? `${via.username}:${via.password}` : via.username);
  return { target: `${via.hostname}:${via.port || '80'}`, credentials, options };
}
