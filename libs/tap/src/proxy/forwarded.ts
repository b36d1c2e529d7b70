import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** `http` or `https`, by the client's socket. */
export function requestScheme(req: { readonly socket: object }): 'http' | 'https' {
  return (req.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http';
}

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as plain IPv4. */
export function plainAddress(address: string | undefined): string {
  if (address === undefined) return '';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * Adds X-Forwarded-For (appending the client's address to what came in),
 * X-Forwarded-Proto and X-Forwarded-Host (kept when a proxy before us set them).
 */
export function addForwardedHeaders(headers: OutgoingHttpHeaders, req: IncomingMessage): void {
  const client = plainAddress(req.socket.remoteAddress);
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior === undefined || prior.length === 0 ? client : `${prior}, ${client}`;
  if (req.headers['x-forwarded-proto'] === undefined) headers['x-forwarded-proto'] = requestScheme(req);
  if (req.headers['x-forwarded-host'] === undefined && req.headers.host !== undefined) {
    headers['x-forwarded-host'] = req.headers.host;
  }
}
