import http2 from 'node:http2';
import type { Duplex } from 'node:stream';
import type { GrpcRelay } from './grpc-relay.js';
import { isGrpcRequest, type Http2RestBridge } from './h2-rest-bridge.js';

const noop = (): void => {};

/**
 * The server side of every HTTP/2 connection of the port (h2c with prior knowledge, or h2 over
 * TLS by ALPN; TLS is terminated before). It is this lib's own Node HTTP/2 server, fed the
 * connections the listener routed to it, and it sorts streams by content type, as Aperture's
 * listener mux does: `application/grpc*` to grpc-js (through its public connection injector, see
 * GrpcRelay), every other stream to the HTTP routes (Http2RestBridge). A connection may carry both.
 */
export class Http2Front {
  private readonly server: http2.Http2Server;
  private readonly sessions = new Set<http2.ServerHttp2Session>();
  private closing = false;

  constructor(grpc: GrpcRelay, rest: Http2RestBridge) {
    // As grpc-js sets for its own HTTP/2 servers: no cap on session memory (Node degrades badly
    // when it is reached under many concurrent streams) nor on the header block it sends.
    this.server = http2.createServer({ maxSessionMemory: Number.MAX_SAFE_INTEGER, maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER });
    this.server.on('session', (session: http2.ServerHttp2Session) => {
      session.on('error', noop);
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
      if (this.closing) session.close();
    });
    this.server.on('sessionError', noop);
    this.server.on('stream', (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
      if (isGrpcRequest(headers)) grpc.relay(stream, headers);
      else rest.relay(stream, headers);
    });
  }

  /** Serve an HTTP/2 connection (its preface not yet read, or put back). */
  accept(socket: Duplex): void {
    this.server.emit('connection', socket);
  }

  /** Shutdown: GOAWAY on every session; streams in flight go on, new ones are refused. */
  close(): void {
    this.closing = true;
    for (const session of this.sessions) session.close();
  }

  /** Cut every HTTP/2 session still open. */
  destroyAll(): void {
    for (const session of this.sessions) session.destroy();
  }
}
