/** SPEC Header: canonical header name → values. */
export type Header = Record<string, string[]>;

/** SPEC ClientTLSConfig. File paths; empty string = unset. */
export interface ClientTLSConfig {
  ca_file: string;
  cert_file: string;
  insecure_skip_verify: boolean;
  key_file: string;
  key_log_file: string;
}

/** SPEC ProxyConfig (`client.proxy`): takes precedence over HTTP_PROXY, HTTPS_PROXY, NO_PROXY. */
export interface ProxyConfig {
  http: string;
  https: string;
  no_proxy: string[];
}

/** SPEC HTTPClientConfig. Durations are Go duration strings; 0 means no limit unless stated. */
export interface HTTPClientConfig {
  disable_compression: boolean;
  disable_keep_alives: boolean;
  expect_continue_timeout: string;
  idle_connection_timeout: string;
  key_log_file: string;
  max_conns_per_host: number;
  max_idle_connections: number;
  max_idle_connections_per_host: number;
  max_response_header_bytes: number;
  network_keep_alive: string;
  network_timeout: string;
  read_buffer_size: number;
  response_header_timeout: string;
  tls_handshake_timeout: string;
  timeout: string;
  use_proxy: boolean;
  write_buffer_size: number;
  proxy_connect_header: Header;
  tls: ClientTLSConfig;
}

/** SPEC BackoffConfig. */
export interface BackoffConfig {
  base_delay: string;
  jitter: number;
  max_delay: string;
  multiplier: number;
}

/** SPEC GRPCClientConfig. */
export interface GRPCClientConfig {
  insecure: boolean;
  min_connection_timeout: string;
  use_proxy: boolean;
  backoff: BackoffConfig;
  tls: ClientTLSConfig;
}

/** SPEC ClientConfig. */
export interface ClientConfig {
  grpc: GRPCClientConfig;
  http: HTTPClientConfig;
}

const NO_TLS: ClientTLSConfig = { ca_file: '', cert_file: '', insecure_skip_verify: false, key_file: '', key_log_file: '' };

/** SPEC defaults, for callers that build a client without the config loader. */
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
