import type { ServerResponse } from 'node:http';
import type { UpstreamErrorReason } from '../metrics.js';
import { ErrorCode } from '@sluice/errors';

/** Raised on the upstream request when the workload is silent for too long. */
export class UpstreamTimeoutError extends Error {
  readonly code = ErrorCode.UPSTREAM_TIMEOUT;
  constructor(ms: number) {
    super(`the workload did not answer within ${ms} ms`);
    this.name = 'UpstreamTimeoutError';
  }
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EADDRNOTAVAIL']);

/** The metric reason and the status answered to the client for an upstream failure. */
export function classifyUpstreamError(err: unknown): { reason: UpstreamErrorReason; status: 502 | 504 } {
  if (err instanceof UpstreamTimeoutError) return { reason: 'timeout', status: 504 };
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECT_CODES.has(code)) return { reason: 'connect', status: 502 };
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return { reason: 'timeout', status: 504 };
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') return { reason: 'bad_response', status: 502 };
  return { reason: 'reset', status: 502 };
}

/** Answers a gateway error in the gRPC-gateway body shape used everywhere in Sluice. */
export function writeGatewayError(res: ServerResponse, status: number, grpcCode: number, message: string, close = false): void {
  const body = JSON.stringify({ code: grpcCode, message, details: [] });
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  if (close) headers['connection'] = 'close';
  res.writeHead(status, headers);
  res.end(body);
}
