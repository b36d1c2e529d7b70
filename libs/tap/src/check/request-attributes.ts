import { plainAddress, requestScheme } from '../proxy/forwarded.js';
import type { InterestFilter } from './interest-filter.js';
import type { CheckHTTPRequest, SocketAddress } from './types.js';

/** The body prefix that goes with a check. */
export interface BodySample {
  /** The body, or its first bytes, as UTF-8 text ('' when not read). */
  text: string;
  /** True when the request has more body than `text` carries. */
  truncated: boolean;
}

export const NO_BODY: BodySample = { text: '', truncated: false };

/**
 * What a check reads of a request: an HTTP/1.1 IncomingMessage, or the head
 * of an HTTP/2 stream (h2/h2-request.ts: pseudo-headers left out of
 * `rawHeaders`, `url` its :path, `headers.host` its :authority).
 */
export interface CheckedRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  /** `1.1`, `2.0`, …: the check's protocol is `HTTP/<httpVersion>`. */
  readonly httpVersion: string;
  readonly rawHeaders: readonly string[];
  readonly headers: { readonly host?: string | undefined; readonly 'content-length'?: string | undefined };
  readonly socket: {
    readonly remoteAddress?: string | undefined;
    readonly remotePort?: number | undefined;
    readonly localAddress?: string | undefined;
    readonly localPort?: number | undefined;
  };
}

/**
 * Request headers with lower-case names; repeated headers joined with ', '.
 * With a filter, only the headers it wants.
 */
export function flattenHeaders(req: Pick<CheckedRequest, 'rawHeaders'>, filter?: InterestFilter): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = req.rawHeaders;
  const filtering = filter !== undefined && !filter.all;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (filtering && !filter.wants(name)) continue;
    const value = raw[i + 1] as string;
    const prior = out[name];
    out[name] = prior === undefined ? value : `${prior}, ${value}`;
  }
  return out;
}

/** Content-Length as a number, or -1 when absent or malformed. */
export function requestSize(req: Pick<CheckedRequest, 'headers'>): number {
  const cl = req.headers['content-length'];
  if (cl === undefined || !/^\d+$/.test(cl)) return -1;
  const n = Number(cl);
  return Number.isSafeInteger(n) ? n : -1;
}

/** The check's protocol of the common versions, made once. */
const PROTOCOLS: Readonly<Record<string, string>> = { '1.1': 'HTTP/1.1', '1.0': 'HTTP/1.0', '2.0': 'HTTP/2.0' };

function protocolOf(httpVersion: string): string {
  return PROTOCOLS[httpVersion] ?? `HTTP/${httpVersion}`;
}

function socketAddress(address: string | undefined, port: number | undefined): SocketAddress {
  return { protocol: 'TCP', address: plainAddress(address), port: port ?? 0 };
}

/**
 * The CheckHTTP request describing `req` at `controlPoint`. With a filter
 * (the agent's header interest), only the headers it wants, the body only
 * when it wants it, and its generation; without one, everything under
 * generation 0.
 */
export function checkRequestOf(req: CheckedRequest, controlPoint: string, body: BodySample, filter?: InterestFilter): CheckHTTPRequest {
  const sample = filter === undefined || filter.wantsBody() ? body : NO_BODY;
  return {
    source: socketAddress(req.socket.remoteAddress, req.socket.remotePort),
    destination: socketAddress(req.socket.localAddress, req.socket.localPort),
    control_point: controlPoint,
    request: {
      method: req.method ?? 'GET',
      headers: flattenHeaders(req, filter),
      path: req.url ?? '/',
      host: req.headers.host ?? '',
      scheme: requestScheme(req),
      size: requestSize(req),
      protocol: protocolOf(req.httpVersion),
      body: sample.text,
      truncated_body: sample.truncated,
    },
    ramp_mode: false,
    interest_generation: filter?.generation ?? 0,
  };
}
