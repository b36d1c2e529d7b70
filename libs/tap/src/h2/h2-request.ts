import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { CheckedRequest } from '../check/request-attributes.js';

/** An HTTP/2 request's head as the check reads it (see CheckedRequest). */
export interface H2Request extends CheckedRequest {
  readonly method: string;
  url: string;
  readonly headers: IncomingHttpHeaders;
}

function pairsOf(headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push(name, String(v));
  }
  return out;
}

/**
 * The head of an HTTP/2 stream: its :method, its :path as the target, its
 * :authority as the host, its fields without the pseudo-headers (as they
 * came, `rawHeaders` of the 'stream' event, when given), HTTP version 2.0 and
 * the connection's addresses.
 */
export function h2RequestOf(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, rawHeaders?: readonly string[]): H2Request {
  const raw = rawHeaders ?? pairsOf(headers);
  const fields: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.charCodeAt(0) !== 0x3a /* : */) fields.push(name, raw[i + 1] as string);
  }
  const authority = headers[':authority'];
  const host = typeof authority === 'string' && authority !== '' ? authority : headers.host;
  const socket = stream.session?.socket;
  return {
    method: typeof headers[':method'] === 'string' ? headers[':method'] : 'GET',
    url: typeof headers[':path'] === 'string' ? headers[':path'] : '/',
    httpVersion: '2.0',
    rawHeaders: fields,
    headers: host === undefined ? headers : { ...headers, host },
    socket: {
      remoteAddress: socket?.remoteAddress,
      remotePort: socket?.remotePort,
      localAddress: socket?.localAddress,
      localPort: socket?.localPort,
    },
  };
}
