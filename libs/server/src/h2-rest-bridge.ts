import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GrpcCode } from '@sluice/errors';
import { isGrpcContentType } from './h2-header-block.js';
import type { Logger } from './types.js';

/** Request headers that belong to one HTTP/2 hop and are not sent on to HTTP/1.1 (RFC 9113 §8.2.2), plus pseudo-headers. */
const H2_ONLY_REQUEST = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'http2-settings', 'host']);
/** Response headers HTTP/2 forbids (connection-specific). */
const H1_ONLY_RESPONSE = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** Whether an HTTP/2 request is a gRPC call: `application/grpc`, `application/grpc+proto`, `application/grpc-web…`. */
export function isGrpcRequest(headers: http2.IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  return isGrpcContentType(typeof type === 'string' ? type : undefined);
}

const noop = (): void => {};

/**
 * The HTTP/2 connections whose first request is not a gRPC call (curl over https negotiates h2 by
 * ALPN; `curl --http2-prior-knowledge` speaks h2c), served by the HTTP routes. Aperture's listener
 * mux routes HTTP/2 by content type; here the shared listener decides each HTTP/2 connection by the
 * content type of its first request and hands these to this bridge's own HTTP/2 server. Each request is
 * relayed to the same HTTP handler through a private HTTP/1.1 server on a Unix socket in a fresh
 * 0700 directory. gRPC connections never pass through here.
 *
 * A connection is decided by its first request: a gRPC call that comes later on a connection
 * served here is answered UNIMPLEMENTED (a gRPC client opens a connection of its own).
 */
export class Http2RestBridge {
  private dir: string | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16 });
  private readonly streams = new Set<http2.ServerHttp2Stream>();
  private readonly h2 = http2.createServer();
  private readonly sessions = new Set<http2.ServerHttp2Session>();

  constructor(private readonly server: http.Server, private readonly logger?: Logger) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.h2.on('session', (session: http2.ServerHttp2Session) => {
      session.on('error', noop);
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
    });
    this.h2.on('stream', (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
      if (isGrpcRequest(headers)) this.refuseGrpc(stream);
      else this.relay(stream, headers);
    });
  }

  /** Serve an HTTP/2 connection (its bytes from the preface on still to be read) with the HTTP routes. */
  serve(socket: Socket): void {
    this.h2.emit('connection', socket);
  }

  /** A gRPC call on a connection that carries HTTP requests: answered UNIMPLEMENTED, trailers only. */
  private refuseGrpc(stream: http2.ServerHttp2Stream): void {
    stream.on('error', noop);
    stream.respond({
      ':status': 200,
      'content-type': 'application/grpc',
      'grpc-status': String(GrpcCode.UNIMPLEMENTED),
      'grpc-message': 'this HTTP/2 connection carries HTTP requests; gRPC calls need a connection whose first request is a gRPC call',
    }, { endStream: true });
  }

  private get socketPath(): string {
    if (this.dir === undefined) throw new Error('HTTP/2 bridge is not listening');
    return join(this.dir, 'http.sock');
  }

  listen(): Promise<void> {
    this.dir ??= mkdtempSync(join(tmpdir(), 'sluice-h2-'));
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /** One non-gRPC HTTP/2 request, relayed to the HTTP/1.1 handler and its answer back. */
  private relay(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    stream.on('error', () => {});
    this.streams.add(stream);
    stream.once('close', () => this.streams.delete(stream));
    const out: http.OutgoingHttpHeaders = {};
    for (const name of Object.keys(headers)) {
      if (name.startsWith(':') || H2_ONLY_REQUEST.has(name)) continue;
      out[name] = headers[name];
    }
    const authority = headers[':authority'] ?? headers.host;
    if (typeof authority === 'string') out.host = authority;
    const method = String(headers[':method'] ?? 'GET');
    const path = String(headers[':path'] ?? '/');
    const socket = stream.session?.socket;
    const req = http.request({ socketPath: this.socketPath, agent: this.agent, method, path, headers: out, setHost: false });
    if (socket?.remoteAddress !== undefined) req.setHeader('x-forwarded-for', socket.remoteAddress);
    req.on('response', (res) => {
      if (stream.destroyed || stream.closed) {
        res.destroy();
        return;
      }
      const answer: http2.OutgoingHttpHeaders = { ':status': res.statusCode ?? 502 };
      for (const name of Object.keys(res.headers)) if (!H1_ONLY_RESPONSE.has(name)) answer[name] = res.headers[name];
      try {
        stream.respond(answer);
      } catch {
        res.destroy();
        stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
        return;
      }
      res.pipe(stream);
      res.on('error', () => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
    });
    req.on('error', (err) => {
      this.logger?.debug('HTTP/2 request relay failed', { error: err.message });
      if (stream.headersSent || stream.destroyed) {
        stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
        return;
      }
      const body = JSON.stringify({ code: GrpcCode.UNAVAILABLE, message: 'the HTTP routes could not be reached', details: [] });
      stream.respond({ ':status': 503, 'content-type': 'application/json' });
      stream.end(body);
    });
    stream.once('aborted', () => req.destroy());
    stream.pipe(req);
  }

  /** Let idle keep-alive connections of the relay go (called during shutdown). */
  closeIdle(): void {
    this.server.closeIdleConnections();
  }

  /**
   * Stop: every HTTP/2 session served here gets GOAWAY (it closes once its streams are answered);
   * resolves once every relayed request is answered (idle sockets are let go).
   */
  close(): Promise<void> {
    for (const session of this.sessions) session.close();
    const removeDir = (): void => {
      if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
      this.dir = undefined;
    };
    return new Promise((resolve) => {
      if (!this.server.listening) {
        this.agent.destroy();
        removeDir();
        resolve();
        return;
      }
      this.server.close(() => {
        this.agent.destroy();
        removeDir();
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  destroyAll(): void {
    this.agent.destroy();
    for (const s of this.streams) s.destroy();
    for (const session of this.sessions) session.destroy();
    for (const socket of this.sockets) socket.destroy();
  }
}
