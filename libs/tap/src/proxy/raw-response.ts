import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { safeReason } from './response-head.js';

/** The head of an HTTP/1.1 response as bytes for a raw socket; a reason with control bytes becomes the standard one, header values with CR/LF are dropped. */
export function rawResponseHead(status: number, statusMessage: string | undefined, headers: ReadonlyArray<readonly [string, string]>): string {
  let head = `HTTP/1.1 ${status} ${statusMessage === undefined ? STATUS_CODES[status] ?? '' : safeReason(status, statusMessage)}\r\n`;
  for (const [name, value] of headers) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) continue;
    head += `${name}: ${value}\r\n`;
  }
  return `${head}\r\n`;
}

/** Pairs from Node's rawHeaders list. */
export function rawHeaderPairs(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}

/** Answers a complete response on a raw socket and closes it. */
export function endRawResponse(socket: Duplex, status: number, headers: ReadonlyArray<readonly [string, string]>, body: string): void {
  const all: Array<readonly [string, string]> = headers.filter(([n]) => !/^(content-length|connection|transfer-encoding)$/i.test(n));
  all.push(['Content-Length', String(Buffer.byteLength(body))], ['Connection', 'close']);
  socket.end(rawResponseHead(status, undefined, all) + body);
}
