import { Type } from '@sinclair/typebox';
import { address, bool, duration, float64, int64, str, stringList } from './fields.js';

/** HTTP header field names (RFC 9110 tokens). */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

export const BackoffConfigSchema = Type.Object({
  base_delay: duration('1s', 'Delay before the first reconnection attempt.'),
  jitter: float64(0.2, 'Random spread applied to each delay, as a fraction of it.', { minimum: 0 }),
  max_delay: duration('120s', 'Longest delay between reconnection attempts.'),
  multiplier: float64(1.6, 'Factor applied to the delay after each failed attempt.', { minimum: 0 }),
}, { additionalProperties: false });

export const ClientTLSConfigSchema = Type.Object({
  ca_file: str('', 'CA file used to verify the server certificate.'),
  cert_file: str('', 'Client certificate file (PEM).'),
  insecure_skip_verify: bool(false, 'Skips verification of the server certificate.'),
  key_file: str('', 'Private key file of the client certificate (PEM).'),
  key_log_file: str('', 'Writes TLS session keys to this file, for debugging.'),
}, { additionalProperties: false });

export const GRPCClientConfigSchema = Type.Object({
  insecure: bool(false, 'Disables client TLS.'),
  min_connection_timeout: duration('20s', 'Shortest time allowed for a connection attempt.'),
  use_proxy: bool(false, 'Connects through the HTTP CONNECT proxy of client.proxy.'),
  backoff: BackoffConfigSchema,
  tls: ClientTLSConfigSchema,
}, { additionalProperties: false });

export const HTTPClientConfigSchema = Type.Object({
  disable_compression: bool(false, 'Does not ask servers for compressed responses.'),
  disable_keep_alives: bool(false, 'Uses each connection for one request only.'),
  expect_continue_timeout: duration('1s', 'Time to wait for 100-continue after sending headers with Expect.'),
  idle_connection_timeout: duration('90s', 'How long an idle connection is kept; 0 means no limit.'),
  key_log_file: str('', 'Writes TLS session keys to this file, for debugging.'),
  max_conns_per_host: int64(0, 'Most connections per host; 0 means no limit.', { minimum: 0 }),
  max_idle_connections: int64(100, 'Most idle connections kept in total; 0 means no limit.', { minimum: 0 }),
  max_idle_connections_per_host: int64(5, 'Most idle connections kept per host.', { minimum: 0 }),
  max_response_header_bytes: int64(0, 'Largest accepted response header size in bytes; 0 means the built-in limit.', { minimum: 0 }),
  network_keep_alive: duration('30s', 'TCP keep-alive period of client connections.'),
  network_timeout: duration('30s', 'Time allowed to make a network connection.'),
  read_buffer_size: int64(0, 'Read buffer size in bytes; 0 means 4 KB.', { minimum: 0 }),
  response_header_timeout: duration('0s', 'Time to wait for response headers after sending the request; 0 means no limit.'),
  tls_handshake_timeout: duration('10s', 'Time allowed for the TLS handshake; 0 means no limit.'),
  timeout: duration('60s', 'Time allowed for a whole request: connection, redirects and reading the response.'),
  use_proxy: bool(false, 'Sends requests through the proxy of client.proxy.'),
  write_buffer_size: int64(0, 'Write buffer size in bytes; 0 means 4 KB.', { minimum: 0 }),
  proxy_connect_header: Type.Record(Type.String(), Type.Array(Type.String()), {
    default: {},
    description: 'Headers sent with CONNECT requests to the proxy: header name to list of values (JSON object in the env variable).',
    'x-spec-type': 'map[string][]string',
    propertyNames: { pattern: HEADER_NAME },
  }),
  tls: ClientTLSConfigSchema,
}, { additionalProperties: false });

export const ClientConfigSchema = Type.Object({
  grpc: GRPCClientConfigSchema,
  http: HTTPClientConfigSchema,
}, { additionalProperties: false });

export const ProxyConfigSchema = Type.Object({
  http: address('empty|url|hostname_port', '', 'Proxy for HTTP requests; takes precedence over HTTP_PROXY.'),
  https: address('empty|url|hostname_port', '', 'Proxy for HTTPS requests; takes precedence over HTTPS_PROXY.'),
  no_proxy: stringList('Hosts reached without the proxy; takes precedence over NO_PROXY (JSON list in the env variable).'),
}, { additionalProperties: false });

/** The `client` subtree. */
export const ClientTreeSchema = Type.Object({ proxy: ProxyConfigSchema }, { additionalProperties: false });
