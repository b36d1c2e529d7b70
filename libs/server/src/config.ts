/**
 * The SPEC's `server.*` configuration objects, as this lib consumes them:
 * snake_case field names, durations as Go duration strings, defaults filled in.
 * Structurally compatible with the types @sluice/config exports.
 */

/** SPEC ListenerConfig. */
export interface ListenerConfig {
  /** hostname_port; `:8080` means all interfaces; `[host%zone]:port` accepted. */
  addr: string;
  /** Duration; 0 enables TCP keep-alive with the OS default, negative disables. */
  keep_alive: string;
  network: 'tcp' | 'tcp4' | 'tcp6' | string;
}

/** SPEC GRPCServerConfig. */
export interface GRPCServerConfig {
  connection_timeout: string;
  enable_reflection: boolean;
  latency_buckets_ms: number[];
}

/** SPEC HTTPServerConfig. */
export interface HTTPServerConfig {
  disable_http_keep_alives: boolean;
  idle_timeout: string;
  latency_buckets_ms: number[];
  max_header_bytes: number;
  read_header_timeout: string;
  read_timeout: string;
  write_timeout: string;
}

/** SPEC GRPCGatewayConfig. */
export interface GRPCGatewayConfig {
  /** empty | hostname_port; empty means this server's own listener. */
  grpc_server_address: string;
}

/** SPEC ServerTLSConfig. */
export interface ServerTLSConfig {
  allowed_cn: string;
  cert_file: string;
  client_ca_file: string;
  key_file: string;
  enabled: boolean;
}

/** `server.auth` (the controller's): bearer tokens required on the API. */
export interface ServerAuthConfig {
  /** A file of bearer tokens, one a line; empty: no token is asked for. */
  token_file: string;
}

/** The SPEC `server.*` subtree. */
export interface ServerConfig {
  auth?: ServerAuthConfig;
  listener: ListenerConfig;
  grpc: GRPCServerConfig;
  http: HTTPServerConfig;
  grpc_gateway: GRPCGatewayConfig;
  tls: ServerTLSConfig;
}
