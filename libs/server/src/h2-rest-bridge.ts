import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GrpcCode } from '@sluice/errors';
import type { Logger } from './types.js';

type StreamListener = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, flags: number, rawHeaders: string[]) => void;

/** Request headers that belong to one HTTP/2 hop and are not sent on to HTTP/1.1 (RFC 9113 §8.2.2), plus pseudo-headers. */
const H2_ONLY_REQUEST = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'http2-settings', 'host']);
/** Response headers HTTP/2 forbids (connection-specific). */
const H1_ONLY_RESPONSE = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** Whether an HTTP/2 request is a gRPC call: `application/grpc`, `application/grpc+proto`, `application/grpc-web…`. */
export function isGrpcRequest(headers: http2.IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && type.startsWith('application/grpc');
}

/**
 * The grpc-js HTTP/2 server behind a connection injector. grpc-js keeps it private (in its
 * `http2Servers` map); it is read once, right after the injector is made.
 */
export function injectorHttp2Server(grpcServer: object): http2.Http2Server | undefined {
  const servers = (grpcServer as { http2Servers?: unknown }).http2Servers;
  if (!(servers instanceof Map) || servers.size === 0) return undefined;
  const last = [...servers.keys()].pop() as unknown;
  return last instanceof Object && typeof (last as http2.Http2Server).listeners === 'function' ? last as http2.Http2Server : undefined;
}

/**
 * HTTP/2 requests that are not gRPC, served by the HTTP routes. Aperture's listener mux routes
 * HTTP/2 by content type; here every HTTP/2 connection goes to grpc-js, whose stream handler is
 * wrapped: `application/grpc*` streams go on to grpc-js, every other stream (curl over https
 * negotiates h2 by ALPN) is relayed to the same HTTP handler through a private HTTP/1.1
 * server on a Unix socket in a fresh 0700 directory. Only those requests pay for the relay;
 * a gRPC stream pays one header check.
 */
export class Http2RestBridge {
  private dir: string | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16 });
  private readonly streams = new Set<http2.ServerHttp2Stream>();

  constructor(private readonly server: http.Server, private readonly logger?: Logger) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Wrap the stream handlers of grpc-js's HTTP/2 server; false when it cannot be found (HTTP/2 stays gRPC-only). */
  attach(h2: http2.Http2Server | undefined): boolean {
    if (h2 === undefined) return false;
    const grpcListeners = h2.listeners('stream') as StreamListener[];
    if (grpcListeners.length === 0) return false;
    h2.removeAllListeners('stream');
    h2.on('stream', (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, flags: number, rawHeaders: string[]) => {
      if (isGrpcRequest(headers)) {
        for (let i = 0; i < grpcListeners.length; i++) grpcListeners[i].call(h2, stream, headers, flags, rawHeaders);
        return;
      }
      this.relay(stream, headers);
    });
    return true;
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

  /** Stop accepting; resolves once every relayed request is answered (idle sockets are let go). */
  close(): Promise<void> {
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
    for (const socket of this.sockets) socket.destroy();
  }
}
