import http2 from 'node:http2';
import type { Socket } from 'node:net';
import type * as grpc from '@grpc/grpc-js';
import { GrpcCode } from '@sluice/errors';
import { duplexPair } from './duplex-pair.js';
import { PEER_HEADER, peerHeaderValue } from './forwarded-peer.js';
import type { Logger } from './types.js';

const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR, NGHTTP2_FLAG_END_STREAM } = http2.constants;

/** Request headers not sent on: connection-specific ones (RFC 9113 §8.2.2), `host` (sent as :authority) and the peer header. */
const DROPPED_REQUEST = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings', 'host', PEER_HEADER]);
/** Response headers HTTP/2 forbids. */
const DROPPED_RESPONSE = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

const noop = (): void => {};

/**
 * gRPC streams of the HTTP/2 front, handed to grpc-js through its public connection injector:
 * each client session gets its own in-process HTTP/2 connection to grpc-js (made on its first gRPC
 * stream, closed with it), and every gRPC stream of the session is relayed on it as it is (headers,
 * messages, trailers, resets both ways, flow control by pipes). The client connection's address
 * travels in PEER_HEADER, which the server's first interceptor turns back into the call's peer.
 */
export class GrpcRelay {
  private readonly internal = new WeakMap<http2.Http2Session, http2.ClientHttp2Session>();
  private readonly open = new Set<http2.ClientHttp2Session>();

  constructor(private readonly injector: () => grpc.ConnectionInjector, private readonly logger?: Logger) {}

  /** The in-process connection to grpc-js for a client session (a new one once the last is closing). */
  private connectionFor(outer: http2.Http2Session): http2.ClientHttp2Session {
    const known = this.internal.get(outer);
    if (known !== undefined && !known.closed && !known.destroyed) return known;
    const [clientEnd, serverEnd] = duplexPair();
    this.injector().injectConnection(serverEnd);
    const session = http2.connect('http://grpc.internal', {
      createConnection: () => clientEnd as unknown as Socket,
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
      maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
    });
    session.on('error', (err) => this.logger?.debug('in-process gRPC connection failed', { error: err.message }));
    this.open.add(session);
    session.once('close', () => {
      this.open.delete(session);
      clientEnd.destroy();
    });
    this.internal.set(outer, session);
    outer.once('close', () => session.close());
    return session;
  }

  /** Relay one gRPC stream of a client session to grpc-js and its answer back. */
  relay(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    stream.on('error', noop);
    const outer = stream.session;
    if (outer === undefined) {
      stream.close(NGHTTP2_CANCEL);
      return;
    }
    const out: http2.OutgoingHttpHeaders = {};
    for (const name of Object.keys(headers)) {
      if (DROPPED_REQUEST.has(name) || (name === 'te' && headers.te !== 'trailers')) continue;
      out[name] = headers[name];
    }
    const authority = headers[':authority'] ?? headers.host;
    if (typeof authority === 'string') out[':authority'] = authority;
    const peer = peerHeaderValue(outer.socket);
    if (peer !== undefined) out[PEER_HEADER] = peer;

    let req: http2.ClientHttp2Stream;
    try {
      req = this.connectionFor(outer).request(out);
    } catch (err) {
      this.logger?.debug('gRPC stream could not be relayed', { error: (err as Error).message });
      answerUnavailable(stream);
      return;
    }
    req.on('error', noop);
    let responded = false;
    let trailers: http2.IncomingHttpHeaders | undefined;

    req.once('response', (answer, flags) => {
      if (stream.closed || stream.destroyed) return;
      responded = true;
      const end = (flags & NGHTTP2_FLAG_END_STREAM) !== 0;
      try {
        stream.respond(responseHeaders(answer), end ? { endStream: true } : { waitForTrailers: true });
      } catch {
        req.close(NGHTTP2_CANCEL);
        return;
      }
      if (end) req.resume();
      else req.pipe(stream);
    });
    req.on('trailers', (t) => { trailers = t; });
    stream.on('wantTrailers', () => {
      stream.sendTrailers(trailers === undefined ? {} : responseHeaders(trailers));
    });
    req.once('close', () => {
      // What the client still sends has nowhere to go: it is read and dropped. The client stream
      // stays open as grpc-js left it, until the client ends it or its session ends.
      stream.unpipe(req);
      stream.resume();
      if (stream.closed || stream.destroyed) return;
      // Closed before grpc-js answered (its connection failed or was cut at shutdown): the client
      // sees UNAVAILABLE, as when a server connection drops.
      if (!responded) {
        answerUnavailable(stream);
        return;
      }
      if (req.rstCode !== undefined && req.rstCode !== NGHTTP2_NO_ERROR && !stream.writableEnded) stream.close(req.rstCode);
    });
    // The client went away or reset the stream: grpc-js sees the call cancelled.
    stream.once('close', () => {
      if (!req.closed && !req.destroyed) req.close(NGHTTP2_CANCEL);
    });
    stream.pipe(req);
  }

  /** Cut every in-process connection (at the shutdown deadline, or once gRPC has stopped). */
  destroyAll(): void {
    for (const session of this.open) session.destroy();
  }
}

function responseHeaders(headers: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const name of Object.keys(headers)) if (!DROPPED_RESPONSE.has(name)) out[name] = headers[name];
  return out;
}

/** A trailers-only gRPC answer: UNAVAILABLE, grpc-js could not be reached. */
function answerUnavailable(stream: http2.ServerHttp2Stream): void {
  if (stream.headersSent || stream.closed || stream.destroyed) return;
  stream.respond({
    ':status': 200,
    'content-type': 'application/grpc',
    'grpc-status': String(GrpcCode.UNAVAILABLE),
    'grpc-message': 'the gRPC server could not be reached',
  }, { endStream: true });
  stream.resume();
}
