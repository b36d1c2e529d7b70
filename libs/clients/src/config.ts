import type { ClientTLSConfig, HTTPClientConfig, GRPCClientConfig, ProxyConfig } from '@sluice/config';

// The outgoing clients' configuration objects (ClientTLSConfig, ProxyConfig, HTTPClientConfig,
// BackoffConfig, GRPCClientConfig, ClientConfig), as @sluice/config validates them: durations are Go
// duration strings, file paths empty when unset.
export type { ClientTLSConfig, ProxyConfig, HTTPClientConfig, BackoffConfig, GRPCClientConfig, ClientConfig } from '@sluice/config';

/** Header: canonical header name → values. */
export type Header = Record<string, string[]>;

const NO_TLS: ClientTLSConfig = { ca_file: '', cert_file: '', insecure_skip_verify: false, key_file: '', key_log_file: '' };

/** The documented defaults, for callers that build a client without the config loader. */
export const DEFAULT_HTTP_CLIENT_CONFIG: Readonly<HTTPClientConfig> = Object.freeze({
  disable_compression: false,
  disable_keep_alives: false,
  expect_continue_timeout: '1s',
  idle_connection_timeout: '90s',
  key_log_file: '',
  max_conns_per_host: 0,
  max_idle_connections: 100,
  max_idle_connections_per_host: 5,
  max_response_header_bytes: 0,
  network_keep_alive: '30s',
  network_timeout: '30s',
  read_buffer_size: 0,
  response_header_timeout: '0s',
  tls_handshake_timeout: '10s',
  timeout: '60s',
  use_proxy: false,
  write_buffer_size: 0,
  proxy_connect_header: {},
  tls: NO_TLS,
});

export const DEFAULT_GRPC_CLIENT_CONFIG: Readonly<GRPCClientConfig> = Object.freeze({
  insecure: false,
  min_connection_timeout: '20s',
  use_proxy: false,
  backoff: { base_delay: '1s', jitter: 0.2, max_delay: '120s', multiplier: 1.6 },
  tls: NO_TLS,
});

export const NO_PROXY_CONFIG: Readonly<ProxyConfig> = Object.freeze({ http: '', https: '', no_proxy: [] });
