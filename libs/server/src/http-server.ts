import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TlsOptions } from 'node:tls';
import { GrpcCode } from '@sluice/errors';
import type { HTTPServerConfig } from './config.js';
import { durationMs } from './durations.js';

const DEFAULT_MAX_HEADER_BYTES = 1 << 20;

/** server.http durations in milliseconds (0 = no bound), as Node's http.Server applies them. */
export interface HttpTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  writeTimeout: number;
}

/** Go semantics: a zero read_header_timeout or idle_timeout falls back to read_timeout. */
export function httpTimeouts(config: HTTPServerConfig): HttpTimeouts {
  const read = Math.max(0, durationMs(config.read_timeout, 'http.read_timeout'));
  let headers = Math.max(0, durationMs(config.read_header_timeout, 'http.read_header_timeout'));
  if (headers === 0) headers = read;
  if (read > 0 && headers > read) headers = read;
  const idle = Math.max(0, durationMs(config.idle_timeout, 'http.idle_timeout'));
  return {
    headersTimeout: headers,
    requestTimeout: read,
    keepAliveTimeout: idle === 0 ? read : idle,
    writeTimeout: Math.max(0, durationMs(config.write_timeout, 'http.write_timeout')),
  };
}

/**
 * The Node HTTP/1.1 server behind the shared listener (https.Server when TLS is on).
 * It listens itself, so Node's connection tracking and timeouts work; the listener
 * replaces its connection handler with the protocol router.
 */
export function createHttpServer(config: HTTPServerConfig, t: HttpTimeouts, handler: http.RequestListener, tls?: TlsOptions): http.Server {
  const bounds = [t.headersTimeout, t.requestTimeout].filter((v) => v > 0);
  const options: http.ServerOptions = {
    headersTimeout: t.headersTimeout,
    requestTimeout: t.requestTimeout,
    keepAliveTimeout: t.keepAliveTimeout,
    maxHeaderSize: config.max_header_bytes > 0 ? config.max_header_bytes : DEFAULT_MAX_HEADER_BYTES,
    connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(Math.min(1000, ...bounds) / 4))),
    noDelay: true,
  };
  const server = tls === undefined ? http.createServer(options, handler) : https.createServer({ ...options, ...tls }, handler);
  server.keepAliveTimeout = t.keepAliveTimeout;
  server.on('clientError', onClientError);
  return server;
}

/** Answer a request Node refused before routing, in the gateway error shape. */
function onClientError(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (!socket.writable || pending?.headersSent === true) {
    socket.destroy();
    return;
  }
  let status = 400;
  let code: number = GrpcCode.INVALID_ARGUMENT;
  let message = 'bad request';
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'request header fields too large';
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    code = GrpcCode.DEADLINE_EXCEEDED;
    message = 'request not received within the read timeout';
  } else if (err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ code, message, details: [] });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
