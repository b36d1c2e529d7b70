import type { OutgoingHttpHeaders } from 'node:http2';
import { GrpcCode } from '@sluice/errors';
import { isGrpcContentType } from '@sluice/flowcontrol/grpc-labels';
import { grpcCodeOfStatus } from '../check/decision.js';
import type { HeaderValue } from '../check/types.js';

export { GrpcCode, isGrpcContentType };

/** The longest grpc-timeout honoured (gRPC's 8 digits of hours are far past anything useful): 100 days. */
const TIMEOUT_MAX_MS = 100 * 24 * 3_600_000;

const TIMEOUT_UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/**
 * A `grpc-timeout` value (1 to 8 digits and a unit: H, M, S, m, u, n) in
 * milliseconds; undefined when absent, null when malformed.
 */
export function parseGrpcTimeout(value: string | string[] | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return null;
  const m = /^(\d{1,8})([HMSmun])$/.exec(value);
  if (m === null) return null;
  return Math.min(Number(m[1]) * (TIMEOUT_UNIT_MS[m[2] as string] as number), TIMEOUT_MAX_MS);
}

/** A deadline as a grpc-timeout value (whole milliseconds, at least 1; seconds past 8 digits). */
export function formatGrpcTimeout(ms: number): string {
  const whole = Math.max(1, Math.ceil(ms));
  return whole < 1e8 ? `${whole}m` : `${Math.ceil(whole / 1000)}S`;
}

/** A grpc-message value: UTF-8, every byte outside printable ASCII and `%` itself percent-encoded. */
export function encodeGrpcMessage(message: string): string {
  let out = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The headers of a trailers-only gRPC answer (HTTP 200, the status in the one HEADERS frame that ends the stream). */
export function grpcTrailersOnly(code: number, message: string, extra: OutgoingHttpHeaders = {}): OutgoingHttpHeaders {
  return {
    ...extra,
    ':status': 200,
    'content-type': 'application/grpc',
    'grpc-status': String(code),
    'grpc-message': encodeGrpcMessage(message),
  };
}

/** A denial as the agent gave it (see Decision). */
export interface Denial {
  status: number;
  headers: readonly HeaderValue[];
  body: string;
  /** How long the agent said to wait before trying again (ms), when it said. */
  waitMs?: number;
}

/** gRPC code of a denial: 429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE, others as the gRPC-gateway maps them back. */
export function grpcCodeOfDenial(status: number): number {
  if (status === 429) return GrpcCode.RESOURCE_EXHAUSTED;
  if (status === 503) return GrpcCode.UNAVAILABLE;
  return grpcCodeOfStatus(status);
}

const MESSAGE_MAX = 1024;

/** What a denial says: the `message` of a gRPC-gateway JSON body, else its text, else the status. */
function denialMessage(status: number, body: string): string {
  if (body.length > 0) {
    try {
      const parsed = JSON.parse(body) as { message?: unknown } | null;
      if (parsed !== null && typeof parsed === 'object' && typeof parsed.message === 'string' && parsed.message !== '') return parsed.message.slice(0, MESSAGE_MAX);
    } catch {
      // not JSON: the text itself
    }
    return body.slice(0, MESSAGE_MAX);
  }
  return `request rejected (HTTP ${status})`;
}

/** Milliseconds of a Retry-After in seconds; undefined for a date or anything else. */
function retryAfterMs(headers: readonly HeaderValue[]): number | undefined {
  const h = headers.find((x) => x.key.toLowerCase() === 'retry-after');
  return h !== undefined && /^\d{1,9}$/.test(h.value.trim()) ? Number(h.value.trim()) * 1000 : undefined;
}

/** Headers of a denial that are the HTTP answer's own, not metadata for a gRPC client. */
const NOT_METADATA = /^(?:content-type|content-length|retry-after|grpc-status|grpc-message|grpc-retry-pushback-ms)$/i;

/**
 * A denial as a trailers-only gRPC answer: HTTP 200, `grpc-status` by the
 * denial's HTTP status, its message, `grpc-retry-pushback-ms` from the
 * agent's wait (or Retry-After) when there is one, and the agent's other
 * headers as metadata.
 */
export function grpcDenialHeaders(d: Denial): OutgoingHttpHeaders {
  const extra: OutgoingHttpHeaders = {};
  for (const h of d.headers) {
    const name = h.key.toLowerCase();
    if (NOT_METADATA.test(name)) continue;
    const prior = extra[name];
    extra[name] = prior === undefined ? h.value : [...(Array.isArray(prior) ? prior : [String(prior)]), h.value];
  }
  const pushback = d.waitMs !== undefined && d.waitMs > 0 ? Math.ceil(d.waitMs) : retryAfterMs(d.headers);
  if (pushback !== undefined && pushback > 0) extra['grpc-retry-pushback-ms'] = String(pushback);
  return grpcTrailersOnly(grpcCodeOfDenial(d.status), denialMessage(d.status, d.body), extra);
}
