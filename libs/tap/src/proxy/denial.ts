import type { ServerResponse } from 'node:http';
import type { HeaderValue } from '../check/types.js';

/** Headers of a denial (already usable: see usableHeaders) as pairs, plus a default content type. */
export function denialHeaders(headers: readonly HeaderValue[], body: string): Array<[string, string]> {
  const out: Array<[string, string]> = headers.map((h) => [h.key.toLowerCase(), h.value]);
  if (body.length > 0 && !out.some(([n]) => n === 'content-type')) out.push(['content-type', 'text/plain; charset=utf-8']);
  return out;
}

/** Answers the agent's denial (429/503/403 with its headers, Retry-After among them, and body). */
export function writeDenial(res: ServerResponse, status: number, headers: readonly HeaderValue[], body: string, close: boolean): void {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of denialHeaders(headers, body)) {
    const prior = out[name];
    out[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  out['content-length'] = String(Buffer.byteLength(body));
  if (close) out['connection'] = 'close';
  res.writeHead(status, out);
  res.end(body);
}
