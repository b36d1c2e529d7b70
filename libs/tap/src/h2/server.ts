import http2 from 'node:http2';
import type { Socket } from 'node:net';
import { h2StreamHandler, type H2Context } from './stream-handler.js';

/** Idle HTTP/2 connections are closed (GOAWAY) after this long, as HTTP/1.1 keep-alive connections are. */
const SESSION_IDLE_MS = 75_000;

export interface H2Front {
  /** Serves HTTP/2 on a connection whose preface was seen (the bytes read are back in the socket). */
  accept(socket: Socket): void;
  /** Starts shutdown: every connection is told to go away (GOAWAY); its open streams finish. */
  drain(): void;
  /** Whether no HTTP/2 connection is left. */
  idle(): boolean;
  /** Ends whatever is left at once. */
  destroy(): void;
}

export interface H2FrontOptions {
  /** Largest header list accepted from a client (its SETTINGS_MAX_HEADER_LIST_SIZE). */
  maxHeaderListBytes: number;
}

/**
 * HTTP/2 (h2c with prior knowledge) on the tap's listener: a Node http2
 * server that listens nowhere, fed the connections the listener routes to it
 * (preface.ts). Garbage after the preface ends that connection (a GOAWAY
 * when the peer can still read one), never the tap.
 */
export function createH2Front(ctx: H2Context, opts: H2FrontOptions): H2Front {
  const sessions = new Set<http2.ServerHttp2Session>();
  let draining = false;
  const server = http2.createServer({
    settings: { maxHeaderListSize: opts.maxHeaderListBytes, enablePush: false },
    maxHeaderListPairs: ctx.maxRequestHeaders + 16,
  });
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    session.on('error', (err) => ctx.logger.debug('HTTP/2 connection error', { error: err.message }));
    session.setTimeout(SESSION_IDLE_MS, () => session.close());
    if (draining) session.close();
  });
  server.on('stream', h2StreamHandler(ctx));
  // Errors of a connection or a stream end that connection or stream; they are the client's, not the tap's.
  server.on('sessionError', () => undefined);
  server.on('streamError', () => undefined);
  return {
    accept(socket) {
      server.emit('connection', socket);
    },
    drain() {
      draining = true;
      for (const s of sessions) s.close();
    },
    idle: () => sessions.size === 0,
    destroy() {
      for (const s of sessions) s.destroy();
    },
  };
}
