import type { ServerResponse } from 'node:http';
import type { HeaderValue } from '../check/types.js';

const HOP_OR_FRAMING = /^(connection|keep-alive|transfer-encoding|content-length|upgrade|te|trailer|proxy-connection)$/i;

/** Headers of a denial as pairs, without ones that would break the framing, plus a default content type. */
export function denialHeaders(headers: readonly HeaderValue[], body: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const h of headers) {
    if (HOP_OR_FRAMING.test(h.key) || /[\r\n]/.test(h.key) || /[\r\n]/.test(h.value)) continue;
    out.push([h.key.toLowerCase(), h.value]);
  }
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
