import type http from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type * as grpc from '@grpc/grpc-js';
import { SluiceError, ErrorCode } from '@sluice/errors';
import { applyKeepAlive } from './keep-alive.js';
import type { ListenTarget } from './listen-address.js';
import { FIRST_STREAM_DEFAULTS, peekFirstStream } from './h2-first-stream.js';
import { sniffProtocol } from './protocol-router.js';
import type { Logger } from './types.js';

export interface SharedListenerOptions {
  /** Bound on the TLS handshake plus the first bytes of a new connection (0: none). */
  firstBytesTimeoutMs: number;
  keepAliveMs: number;
  tls: boolean;
  /** Extra check right after the TLS handshake (client CN); false destroys the socket. */
  peerAllowed?: (socket: TLSSocket) => boolean;
  /** Serves an HTTP/2 connection whose first request is not a gRPC call (the bytes read are put back). */
  serveHttp2: (socket: Socket) => void;
  logger?: Logger;
}

const noop = (): void => {};

/** Bound on the time to an HTTP/2 connection's first request when no first-bytes bound is configured. */
export const FIRST_REQUEST_TIMEOUT_MS = 10_000;

/**
 * One port, two protocols. The Node http(s) server owns the listening socket (so Node's
 * connection tracking and HTTP timeouts work); its connection handler is replaced by a
 * router that peeks at the first bytes: anything but the HTTP/2 preface goes to the HTTP/1.1
 * handler, a malformed preface is refused. An HTTP/2 connection is read on up to its first
 * request (peekFirstStream): a gRPC call sends the whole connection to the gRPC connection
 * injector, which serves it on the socket itself; any other request sends it to `serveHttp2`
 * (the HTTP routes). Every later request on a connection goes where its first one went.
 */
export class SharedListener {
  private readonly sockets = new Set<Socket>();
  private readonly sniffing = new Set<Socket>();
  /** Connections handed to gRPC (HTTP/2). */
  private readonly http2 = new Set<Socket>();
  private readonly httpHandlers: ((socket: Socket) => void)[];

  constructor(
    readonly httpServer: http.Server,
    private readonly injector: () => grpc.ConnectionInjector,
    private readonly options: SharedListenerOptions,
  ) {
    const routedEvent = options.tls ? 'secureConnection' : 'connection';
    this.httpHandlers = httpServer.listeners(routedEvent) as ((socket: Socket) => void)[];
    httpServer.removeAllListeners(routedEvent);
    httpServer.prependListener('connection', (socket: Socket) => this.accept(socket));
    if (options.tls) {
      httpServer.on('secureConnection', (socket: TLSSocket) => this.onSecure(socket));
      httpServer.on('tlsClientError', (err: Error) => options.logger?.debug('TLS handshake refused', { error: err.message }));
    } else {
      httpServer.on('connection', (socket: Socket) => this.route(socket));
    }
  }

  private accept(socket: Socket): void {
    socket.on('error', noop);
    applyKeepAlive(socket, this.options.keepAliveMs);
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private onSecure(socket: TLSSocket): void {
    socket.on('error', noop);
    if (this.options.peerAllowed !== undefined && !this.options.peerAllowed(socket)) {
      this.options.logger?.debug('TLS client refused: certificate subject not allowed', { remote: socket.remoteAddress });
      socket.destroy();
      return;
    }
    this.route(socket);
  }

  /** Route a (plain or TLS-terminated) connection to gRPC or HTTP by its first bytes. */
  route(socket: Socket): void {
    const started = Date.now();
    this.sniffing.add(socket);
    void sniffProtocol(socket, this.options.firstBytesTimeoutMs).then(async (protocol) => {
      if (protocol === 'http1') {
        this.sniffing.delete(socket);
        for (const handler of this.httpHandlers) handler.call(this.httpServer, socket);
        return;
      }
      if (protocol !== 'h2') {
        this.sniffing.delete(socket);
        if (protocol === 'refuse') this.options.logger?.debug('connection refused: malformed HTTP/2 preface', { remote: socket.remoteAddress });
        socket.destroy();
        return;
      }
      const bound = this.options.firstBytesTimeoutMs > 0 ? this.options.firstBytesTimeoutMs : FIRST_REQUEST_TIMEOUT_MS;
      const first = await peekFirstStream(socket, { ...FIRST_STREAM_DEFAULTS, timeoutMs: Math.max(1, bound - (Date.now() - started)) });
      this.sniffing.delete(socket);
      if (first.route === 'drop') {
        this.options.logger?.debug('HTTP/2 connection refused', { remote: socket.remoteAddress, reason: first.reason });
        socket.destroy();
        return;
      }
      this.http2.add(socket);
      socket.once('close', () => this.http2.delete(socket));
      // The HTTP server's sockets allow half-open connections; an HTTP/2 peer never half-closes,
      // so its FIN means it is gone (a killed client): close our side too, so the session and its
      // calls end (a bidi stream held open by a dead client would otherwise stay forever).
      socket.once('end', () => socket.end());
      if (first.route === 'grpc') this.injector().injectConnection(socket);
      else this.options.serveHttp2(socket);
    });
  }

  listen(target: ListenTarget, display: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException): void => {
        reject(new SluiceError(ErrorCode.LISTEN, `cannot listen on ${display}: ${err.code ?? err.message}`, { cause: err }));
      };
      this.httpServer.once('error', onError);
      this.httpServer.listen({ host: target.host, port: target.port, ipv6Only: target.ipv6Only }, () => {
        this.httpServer.off('error', onError);
        this.httpServer.on('error', (err) => this.options.logger?.error('listener error', { error: err.message }));
        resolve();
      });
    });
  }

  address(): { host: string; port: number } {
    const a = this.httpServer.address();
    if (a === null || typeof a === 'string') throw new SluiceError(ErrorCode.NOT_LISTENING, 'the server is not listening');
    return { host: a.address, port: a.port };
  }

  /** Stop accepting; resolves once every accepted connection is gone. */
  close(): Promise<void> {
    for (const socket of this.sniffing) socket.destroy();
    return new Promise((resolve) => {
      if (!this.httpServer.listening) {
        resolve();
        return;
      }
      this.httpServer.close(() => resolve());
    });
  }

  /** Close keep-alive HTTP connections with no request in flight. */
  closeIdle(): void {
    this.httpServer.closeIdleConnections();
  }

  /** Cut every HTTP/2 connection still open (once gRPC has stopped: no call is left on them). */
  destroyHttp2(): void {
    for (const socket of this.http2) socket.destroy();
  }

  /** Cut every connection still open. */
  destroyAll(): void {
    this.httpServer.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
  }
}
