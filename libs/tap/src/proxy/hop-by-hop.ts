import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1),
 * plus the proxy-addressed ones: a proxy never passes them on.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Names listed in the Connection header(s), lower-cased. */
export function connectionListedHeaders(connection: string | string[] | undefined): Set<string> {
  const out = new Set<string>();
  if (connection === undefined) return out;
  for (const value of Array.isArray(connection) ? connection : [connection]) {
    for (const token of value.split(',')) {
      const name = token.trim().toLowerCase();
      if (name.length > 0) out.add(name);
    }
  }
  return out;
}

/**
 * A copy of `headers` (Node's lower-cased form) without hop-by-hop headers and
 * without the headers the Connection header names.
 */
export function endToEndHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const listed = connectionListedHeaders(headers.connection);
  const out: OutgoingHttpHeaders = {};
  for (const name of Object.keys(headers)) {
    if (HOP_BY_HOP_HEADERS.has(name) || listed.has(name)) continue;
    const value = headers[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Whether a TE header asks for trailers (the only TE value worth passing upstream). */
export function acceptsTrailers(te: string | undefined): boolean {
  if (te === undefined) return false;
  return te.split(',').some((t) => t.split(';')[0]?.trim().toLowerCase() === 'trailers');
}
