import { Type } from '@sinclair/typebox';
import { address, bool, duration, floatList, int64, oneOf, str } from './fields.js';

const LATENCY_BUCKETS = [10, 25, 100, 250, 1000];

export const ListenerConfigSchema = Type.Object({
  addr: address('hostname_port', ':8080', 'Address the server listens on, gRPC and HTTP on the same port; [host%zone]:port.'),
  keep_alive: duration('180s', 'TCP keep-alive period of accepted connections; 0 means enabled if supported, negative disables it.', { allowNegative: true }),
  network: oneOf(['tcp', 'tcp4', 'tcp6'] as const, 'tcp', 'Network to listen on: tcp (any), tcp4 (IPv4 only) or tcp6 (IPv6 only).'),
}, { additionalProperties: false });

export const GRPCServerConfigSchema = Type.Object({
  connection_timeout: duration('120s', 'Time allowed to establish a new gRPC connection, handshake included.'),
  enable_reflection: bool(false, 'Registers the gRPC server reflection service.'),
  latency_buckets_ms: floatList(LATENCY_BUCKETS, 'Upper bounds (milliseconds) of the gRPC request latency histogram; increasing, not negative.', { minimum: 0, increasing: true }),
}, { additionalProperties: false });

export const HTTPServerConfigSchema = Type.Object({
  disable_http_keep_alives: bool(false, 'Closes every HTTP connection after one request.'),
  idle_timeout: duration('30s', 'How long an idle keep-alive connection stays open.'),
  latency_buckets_ms: floatList(LATENCY_BUCKETS, 'Upper bounds (milliseconds) of the HTTP request latency histogram; increasing, not negative.', { minimum: 0, increasing: true }),
  max_header_bytes: int64(1_048_576, 'Largest accepted size of the request headers, in bytes.', { minimum: 0 }),
  read_header_timeout: duration('10s', 'Time allowed to read the request headers.'),
  read_timeout: duration('10s', 'Time allowed to read a whole request, body included.'),
  write_timeout: duration('45s', 'Time allowed to write the response.'),
}, { additionalProperties: false });

export const GRPCGatewayConfigSchema = Type.Object({
  grpc_server_address: address('empty|hostname_port', '', 'gRPC server the HTTP gateway forwards to; empty means this server\'s own listener address.'),
}, { additionalProperties: false });

export const ServerTLSConfigSchema = Type.Object({
  allowed_cn: address('empty|fqdn', '', 'Only client certificates with this common name are accepted (applies with client_ca_file).'),
  cert_file: str('', 'Server certificate file (PEM); required when enabled.'),
  client_ca_file: str('', 'CA file used to verify client certificates; when set, clients must present one.'),
  enabled: bool(false, 'Serves TLS on the listener.'),
  key_file: str('', 'Private key file of the server certificate (PEM); required when enabled.'),
}, { additionalProperties: false });

/** `server.auth`, the controller's only (a Sluice addition): bearer tokens on its API. */
export const ServerAuthConfigSchema = Type.Object({
  token_file: str('', 'File of bearer tokens, one a line (# comments); when set, every HTTP route and gRPC method needs `Authorization: Bearer <token>` except the probes, /metrics, gRPC health and the admission webhook paths. Re-read within a second of a change (rotation without restart).'),
}, { additionalProperties: false });

/** The `server` subtree, the same in both processes. */
export const ServerTreeSchema = Type.Object({
  grpc: GRPCServerConfigSchema,
  grpc_gateway: GRPCGatewayConfigSchema,
  http: HTTPServerConfigSchema,
  listener: ListenerConfigSchema,
  tls: ServerTLSConfigSchema,
}, { additionalProperties: false });

/** The controller's `server` subtree: the common one and `auth`. */
export const ControllerServerTreeSchema = Type.Object({
  ...ServerTreeSchema.properties,
  auth: ServerAuthConfigSchema,
}, { additionalProperties: false });
