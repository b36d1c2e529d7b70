import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { DeadlineExceededError, InvalidArgumentError } from '@sluice/errors';
import { NO_PROXY_CONFIG, type HTTPClientConfig, type Header, type ProxyConfig } from './config.js';
import { createConnector } from './connector.js';
import { durationMs } from './duration.js';
import { KeyLog } from './key-log.js';
import { resolveProxy } from './resolve-proxy.js';
import { loadClientTls } from './tls-files.js';
import { undici } from './undici-module.js';

export interface HttpRequestOptions {
  method?: Dispatcher.HttpMethod;
  headers?: Record<string, string | string[]>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface HttpClient {
  /** The undici dispatcher with every transport setting applied (for undici.request / fetch). */
  readonly dispatcher: Dispatcher;
  /** One request, body read in full, all within `timeout`. */
  request(url: string | URL, options?: HttpRequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}

const DEFAULT_BUFFER = 4096;
/** undici needs a finite keep-alive; "no limit" becomes a day. */
const NO_IDLE_LIMIT_MS = 86_400_000;

function flattenHeader(header: Header | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, values] of Object.entries(header ?? {})) out[name] = Array.isArray(values) ? values.join(', ') : String(values);
  return out;
}

function nonNegativeInt(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0) throw new InvalidArgumentError(`${field} must be a whole number >= 0, got ${value}`, field);
  return value;
}

/**
 * An HTTP client configured by HTTPClientConfig, on undici:
 * - timeout: whole request including reading the body (AbortSignal);
 *   network_timeout: TCP connect; tls_handshake_timeout: TLS handshake;
 *   response_header_timeout: undici headersTimeout; network_keep_alive: TCP keep-alive.
 * - idle_connection_timeout: undici keepAliveTimeout/keepAliveMaxTimeout (0: a day);
 *   max_conns_per_host: undici connections per origin (0: unbounded);
 *   disable_keep_alives: undici pipelining 0 (one request per connection).
 * - max_response_header_bytes: undici maxHeaderSize (0: undici's default, 16 KiB).
 * - read/write_buffer_size: socket stream high-water marks (0: 4 KiB).
 * - disable_compression false: sends `Accept-Encoding: gzip` unless the caller
 *   set one, and decompresses the answer (undici decompress interceptor).
 * - use_proxy: per request, resolveProxy(client.proxy over env) picks a
 *   ProxyAgent (CONNECT tunnel carrying proxy_connect_header) or a direct connection.
 * - tls: ca_file, cert_file/key_file, insecure_skip_verify; key_log_file (or
 *   tls.key_log_file) receives NSS key log lines of direct TLS connections.
 * Not applied: max_idle_connections and max_idle_connections_per_host (undici
 * has no bound on idle sockets separate from max_conns_per_host; idle sockets
 * close after idle_connection_timeout) and expect_continue_timeout (undici does
 * not send `Expect: 100-continue` over HTTP/1.1).
 */
export function createHttpClient(config: HTTPClientConfig, proxy: ProxyConfig = NO_PROXY_CONFIG, env: Readonly<Record<string, string | undefined>> = process.env): HttpClient {
  const timeoutMs = durationMs(config.timeout, 'timeout');
  const idleMs = durationMs(config.idle_connection_timeout, 'idle_connection_timeout');
  const headersMs = durationMs(config.response_header_timeout, 'response_header_timeout');
  const connectMs = durationMs(config.network_timeout, 'network_timeout');
  const handshakeMs = durationMs(config.tls_handshake_timeout, 'tls_handshake_timeout');
  const keepAliveMs = durationMs(config.network_keep_alive, 'network_keep_alive');
  durationMs(config.expect_continue_timeout, 'expect_continue_timeout');
  const maxConns = nonNegativeInt(config.max_conns_per_host, 'max_conns_per_host');
  const maxHeader = nonNegativeInt(config.max_response_header_bytes, 'max_response_header_bytes');
  const readBuffer = nonNegativeInt(config.read_buffer_size, 'read_buffer_size') || DEFAULT_BUFFER;
  const writeBuffer = nonNegativeInt(config.write_buffer_size, 'write_buffer_size') || DEFAULT_BUFFER;
  nonNegativeInt(config.max_idle_connections, 'max_idle_connections');
  nonNegativeInt(config.max_idle_connections_per_host, 'max_idle_connections_per_host');
  const tls = loadClientTls(config.tls);
  const keyLogFile = config.key_log_file || config.tls?.key_log_file || '';
  const keyLog = keyLogFile ? new KeyLog(keyLogFile) : undefined;

  const pool: Agent.Options = {
    headersTimeout: Math.max(0, headersMs),
    bodyTimeout: 0,
    keepAliveTimeout: idleMs > 0 ? idleMs : NO_IDLE_LIMIT_MS,
    keepAliveMaxTimeout: idleMs > 0 ? idleMs : NO_IDLE_LIMIT_MS,
    connections: maxConns > 0 ? maxConns : null,
    pipelining: config.disable_keep_alives ? 0 : 1,
    ...(maxHeader > 0 ? { maxHeaderSize: maxHeader } : {}),
  };
  const { Agent, ProxyAgent, interceptors, request } = undici();
  const agent = new Agent({
    ...pool,
    connect: createConnector({
      connectTimeoutMs: Math.max(0, connectMs),
      handshakeTimeoutMs: Math.max(0, handshakeMs),
      keepAliveMs,
      readBufferSize: readBuffer,
      writeBufferSize: writeBuffer,
      tls,
      ...(keyLog === undefined ? {} : { keyLog: keyLog.write }),
    }),
  });

  const proxies = new Map<string, ProxyAgent>();
  const proxyFor = (uri: URL): ProxyAgent => {
    let p = proxies.get(uri.href);
    if (p === undefined) {
      p = new ProxyAgent({
        ...pool,
        uri: uri.href,
        headers: flattenHeader(config.proxy_connect_header),
        requestTls: {
          ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: tls.rejectUnauthorized,
          ...(tls.checkServerIdentity ? { checkServerIdentity: tls.checkServerIdentity } : {}),
          ...(handshakeMs > 0 ? { timeout: handshakeMs } : {}),
        },
        proxyTls: { ca: tls.ca, rejectUnauthorized: tls.rejectUnauthorized, ...(connectMs > 0 ? { timeout: connectMs } : {}) },
      });
      proxies.set(uri.href, p);
    }
    return p;
  };
  const route: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    if (!config.use_proxy || opts.origin === undefined) return dispatch(opts, handler);
    const via = resolveProxy(String(opts.origin), proxy, env);
    return via === undefined ? dispatch(opts, handler) : proxyFor(via).dispatch(opts, handler);
  };
  let closing: Promise<void> | undefined;
  const dispatcher = agent.compose(route, ...(config.disable_compression ? [] : [interceptors.decompress()]));

  return {
    dispatcher,
    async request(url, options = {}) {
      const headers: Record<string, string | string[]> = { ...(options.headers ?? {}) };
      if (!config.disable_compression && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept-encoding')) headers['accept-encoding'] = 'gzip';
      const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
      const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
      const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
      try {
        const res = await request(url, { dispatcher, method: options.method ?? 'GET', headers, body: options.body, signal });
        const body = Buffer.from(await res.body.arrayBuffer());
        return { statusCode: res.statusCode, headers: res.headers, body };
      } catch (err) {
        if (timeout?.aborted && !options.signal?.aborted) throw new DeadlineExceededError(`request to ${new URL(url).origin} timed out after ${config.timeout}`);
        throw err;
      }
    },
    close() {
      closing ??= (async () => {
        await Promise.all([agent.close(), ...[...proxies.values()].map((p) => p.close())]);
        await keyLog?.shutdown();
      })();
      return closing;
    },
  };
}
