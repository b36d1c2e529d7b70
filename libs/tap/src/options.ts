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
}

export const BODY_BYTES_MAX = 1024 * 1024;
