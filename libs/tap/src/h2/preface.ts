import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What every HTTP/2 connection with prior knowledge opens with (RFC 9113 §3.4). */
export const HTTP2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Whether the first bytes of a connection are HTTP/2's preface, another protocol, or too few to tell. */
export function prefaceKind(first: Buffer): 'h2' | 'http1' | 'more' {
  const n = Math.min(first.length, HTTP2_PREFACE.length);
  if (first.compare(HTTP2_PREFACE, 0, n, 0, n) !== 0) return 'http1';
  return n === HTTP2_PREFACE.length ? 'h2' : 'more';
}

export interface PrefaceRouter {
  /** Connections whose first bytes have not arrived yet. */
  readonly undecided: ReadonlySet<Socket>;
  /** Ends every undecided connection (at shutdown). */
  destroyUndecided(): void;
}

/**
 * Routes each connection `server` accepts by its first bytes: HTTP/2's
 * preface to `h2` (the bytes read are put back first), anything else to the
 * HTTP/1.1 server's own connection handling, unchanged. A connection that
 * sends nothing for `idleMs` is closed.
 */
export function routeByPreface(server: Server, h2: (socket: Socket) => void, idleMs: number): PrefaceRouter {
  const http1 = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const undecided = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    undecided.add(socket);
    let seen: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), idleMs);
    const done = (): void => {
      clearTimeout(timer);
      undecided.delete(socket);
      socket.off('data', onData);
      socket.off('close', done);
      socket.off('error', done);
      socket.off('end', ended);
    };
    // The client stopped sending before it said what it speaks.
    const ended = (): void => {
      done();
      socket.destroy();
    };
    const onData = (chunk: Buffer): void => {
      seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
      const kind = prefaceKind(seen);
      if (kind === 'more') return;
      done();
      socket.pause();
      socket.unshift(seen);
      if (kind === 'h2') {
        // The HTTP/2 session reads what is buffered in the socket itself, then takes its reads over.
        h2(socket);
        return;
      }
      for (const listener of http1) listener.call(server, socket);
      process.nextTick(() => socket.resume());
    };
    socket.on('data', onData);
    socket.on('close', done);
    socket.on('error', done);
    socket.on('end', ended);
  });
  return {
    undecided,
    destroyUndecided() {
      for (const socket of undecided) socket.destroy();
    },
  };
}
