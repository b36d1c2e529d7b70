import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { HeaderValue } from '../check/types.js';
import { addForwardedHeaders } from './forwarded.js';
import { acceptsTrailers, endToEndHeaders } from './hop-by-hop.js';

/**
 * Headers of the request to the workload: the client's end-to-end headers,
 * the framing it used (chunked stays chunked), X-Forwarded-*, then the headers
 * the agent adds (they replace a header of the same name).
 */
export function upstreamRequestHeaders(req: IncomingMessage, added: readonly HeaderValue[]): OutgoingHttpHeaders {
  const headers = endToEndHeaders(req.headers);
  if (req.headers['transfer-encoding'] !== undefined) {
    // Node re-frames the body; say chunked explicitly so that it does even for GET.
    headers['transfer-encoding'] = 'chunked';
    delete headers['content-length'];
    if (req.headers.trailer !== undefined) headers['trailer'] = req.headers.trailer;
  }
  const te = req.headers.te;
  if (acceptsTrailers(Array.isArray(te) ? te.join(',') : te)) headers['te'] = 'trailers';
  addForwardedHeaders(headers, req);
  for (const h of added) headers[h.key.toLowerCase()] = h.value;
  return headers;
}

/** Headers of the response to the client: end-to-end ones, plus the Trailer announcement of a chunked body. */
export function clientResponseHeaders(upRes: IncomingMessage): OutgoingHttpHeaders {
  const headers = endToEndHeaders(upRes.headers);
  if (upRes.headers['transfer-encoding'] !== undefined && upRes.headers.trailer !== undefined) {
    headers['trailer'] = upRes.headers.trailer;
  }
  return headers;
}
