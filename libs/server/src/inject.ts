import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';

/** Marks the server end of an in-process connection (see `injector`): bearer-token authentication lets its requests through. */
export const INTERNAL_SOCKET: unique symbol = Symbol('sluice.internal-socket');

export interface InjectRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/v1/flowcontrol/preview/http_requests/ingress?samples=3`. */
  path: string;
  /** A JSON body. */
  body?: unknown;
}

export interface InjectReply {
  status: number;
  /** The JSON answer (or its text when it is not JSON). */
  body: unknown;
}

/** Two connected in-memory stream ends: what one writes, the other reads. */
function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const make = (i: number): Duplex => new Duplex({
    read() { /* data is pushed by the other end */ },
    write(chunk: Buffer, _enc, cb) { ends[1 - i]?.push(chunk); cb(); },
    final(cb) { ends[1 - i]?.push(null); cb(); },
    destroy(err, cb) { ends[1 - i]?.destroy(); cb(err); },
  });
  ends.push(make(0), make(1));
  return [ends[0] as Duplex, ends[1] as Duplex];
}

export function isInternalRequest(req: IncomingMessage): boolean {
  return (req.socket as unknown as { [INTERNAL_SOCKET]?: boolean } | undefined)?.[INTERNAL_SOCKET] === true;
}

/**
 * Runs a request through the server's HTTP routes in this process: a real HTTP exchange over an
 * in-memory connection to an HTTP server that never listens, so the routes, middleware and error
 * answers are those of the network. Used by agent functions, whose calls come over a connection the
 * process itself opened and authenticated: the server end of the connection carries a mark no
 * network socket can have, which lets it past the bearer-token check.
 */
export function injector(handler: (req: IncomingMessage, res: ServerResponse) => void): (r: InjectRequest) => Promise<InjectReply> {
  const server = http.createServer(handler);
  return ({ method, path, body }) => new Promise((resolve, reject) => {
    const [client, serverEnd] = duplexPair();
    (serverEnd as unknown as { [INTERNAL_SOCKET]: boolean })[INTERNAL_SOCKET] = true;
    server.emit('connection', serverEnd);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({
      method, path, host: 'agent.internal', createConnection: () => client as unknown as import('node:net').Socket,
      headers: { connection: 'close', ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try { parsed = text === '' ? undefined : JSON.parse(text); } catch { /* not JSON: the text */ }
        client.destroy();
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => { client.destroy(); reject(err); });
    req.end(payload);
  });
}
