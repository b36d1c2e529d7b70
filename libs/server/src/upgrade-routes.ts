import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GrpcCode } from '@sluice/errors';

/**
 * A path of the HTTP port that switches to another protocol on `Upgrade: <protocol>`
 * (HTTP/1.1 101): a long-lived connection the route serves itself, as the nginx handler's
 * check stream does. `serve` takes the socket after the 101 is written, with the bytes
 * that came after the request head.
 */
export interface UpgradeRoute {
  path: string;
  /** The Upgrade token, compared without case. */
  protocol: string;
  serve(socket: Duplex, head: Buffer, req: IncomingMessage): void;
}

/** Decides whether an upgrade request is authenticated (the server's bearer tokens). */
export type UpgradeAuth = (req: IncomingMessage) => boolean;

function refuse(socket: Duplex, status: number, reason: string, code: number, message: string, extra = ''): void {
  const body = JSON.stringify({ code, message, details: [] });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extra}\r\n${body}`);
}

/**
 * The upgrade routes of one HTTP server: an `upgrade` listener that answers 101 on a known path
 * and protocol (401 without a valid token when tokens are required, 404 on any other path or
 * protocol, in the gateway's error shape), and the upgraded connections, ended at shutdown.
 */
export class UpgradeRoutes {
  private readonly routes = new Map<string, UpgradeRoute>();
  private readonly open = new Set<Duplex>();
  private closing = false;

  constructor(private readonly authenticated?: UpgradeAuth) {}

  add(route: UpgradeRoute): void {
    if (this.routes.has(route.path)) throw new Error(`an upgrade route for ${route.path} exists`);
    this.routes.set(route.path, route);
  }

  get size(): number {
    return this.routes.size;
  }

  /** The server's `upgrade` listener. */
  readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0] ?? '';
    const route = this.routes.get(path);
    const protocol = String(req.headers.upgrade ?? '').trim().toLowerCase();
    if (this.closing) return refuse(socket, 503, 'Service Unavailable', GrpcCode.UNAVAILABLE, 'the server is shutting down');
    if (route === undefined || protocol !== route.protocol.toLowerCase()) {
      return refuse(socket, 404, 'Not Found', GrpcCode.NOT_FOUND, `no upgrade to ${JSON.stringify(protocol)} at ${path}`);
    }
    if (this.authenticated !== undefined && !this.authenticated(req)) {
      return refuse(socket, 401, 'Unauthorized', GrpcCode.UNAUTHENTICATED, 'a valid bearer token is required (Authorization: Bearer <token>)', 'WWW-Authenticate: Bearer\r\n');
    }
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${route.protocol}\r\n\r\n`);
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    route.serve(socket, head, req);
  };

  /** Shutdown: no new upgrades; the open connections are ended (their owners answer what they can first). */
  close(): void {
    this.closing = true;
    for (const s of this.open) s.end();
  }

  destroyAll(): void {
    for (const s of this.open) s.destroy();
  }

  get connections(): number {
    return this.open.size;
  }
}
