import type { LogLevel } from './logger.js';

export interface HostPort {
  /** '' means every interface (listen addresses only). */
  host: string;
  port: number;
}

/** Everything the tap runs with; `parseTapFlags` builds it from the command line and env. */
export interface TapOptions {
  listen: HostPort;
  upstream: HostPort;
  /** gRPC target of the agent, `host:port`. */
  agent: string;
  controlPoint: string;
  admin: HostPort;
  bodyBytes: number;
  checkTimeoutMs: number;
  upstreamTimeoutMs: number;
  shutdownTimeoutMs: number;
  failClosed: boolean;
  logLevel: LogLevel;
  /** Largest request head (request line and headers) accepted from a client; past it 431. */
  maxRequestHeaderBytes: number;
  /** Largest response head accepted from the workload; past it 502. */
  maxResponseHeaderBytes: number;
  /** Most request header fields accepted; past it 431 (never dropped silently). */
  maxRequestHeaders: number;
  /** Most header fields accepted in a workload's response head; past it 502 (never dropped silently). */
  maxResponseHeaders: number;
  /** Merge runs of `/` in request paths into one before the check and the forward. */
  mergeSlashes: boolean;
  /** TLS to the agent: files of the CA that signed its certificate and of this tap's client certificate and key ('' for none); plaintext when all are ''. */
  agentTls: AgentTlsFiles;
  /** How long the agent may be unreachable before the tap says so (log, metric) and reports itself not ready. */
  agentUnavailableGraceMs: number;
  /** Stay ready while the agent is unreachable (requests still go through unchecked, logged and counted). */
  failOpenSilently: boolean;
  /**
   * How HTTP/2 clients' requests (gRPC among them) reach the workload: `h2c` (HTTP/2 without TLS) or
   * `http1` (the default: such requests are answered 502, a gRPC call UNAVAILABLE). HTTP/1.1 requests go over
   * HTTP/1.1 either way.
   */
  upstreamProtocol?: UpstreamProtocol;
}

export type UpstreamProtocol = 'http1' | 'h2c';
export const UPSTREAM_PROTOCOLS: readonly UpstreamProtocol[] = ['http1', 'h2c'];

/** PEM files of TLS to the agent; '' when not given. */
export interface AgentTlsFiles {
  ca: string;
  cert: string;
  key: string;
}

/** Whether the tap talks TLS to the agent. */
export function agentTlsOn(t: AgentTlsFiles): boolean {
  return t.ca !== '' || t.cert !== '' || t.key !== '';
}

export const BODY_BYTES_MAX = 1024 * 1024;

/** Bounds of the header limits' flags. */
export const HEADER_BYTES_MIN = 1024;
export const HEADER_BYTES_MAX = 1024 * 1024;
export const HEADER_COUNT_MAX = 10_000;
