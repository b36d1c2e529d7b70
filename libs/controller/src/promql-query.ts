import { ErrorCode, GrpcCode, SluiceError, UnavailableError } from '@sluice/errors';
import type { HttpClient } from '@sluice/clients';

/** A query answered something other than one finite number (a matrix, several series, none, a string, NaN). */
export class PromqlResultError extends SluiceError {
  constructor(message: string) {
    super(ErrorCode.PROMQL_RESULT, message, { grpcCode: GrpcCode.FAILED_PRECONDITION });
    this.name = 'PromqlResultError';
  }
}

/** The base URL of `prometheus.address`: `host:port` gets `http://`; a URL keeps its scheme and path. */
export function prometheusBaseUrl(address: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  return withScheme.replace(/\/+$/, '');
}

interface PromResponse {
  status?: unknown;
  error?: unknown;
  errorType?: unknown;
  data?: { resultType?: unknown; result?: unknown };
}

function sampleValue(pair: unknown): number {
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[1] !== 'string') throw new PromqlResultError('malformed sample in the answer');
  const v = Number(pair[1]);
  if (!Number.isFinite(v)) throw new PromqlResultError(`the query's value is ${pair[1]}`);
  return v;
}

/**
 * The value of an instant query's answer (Prometheus HTTP API, /api/v1/query): a
 * scalar, or a vector of exactly one sample. Anything else throws PromqlResultError.
 */
export function valueOfAnswer(body: unknown): number {
  const r = body as PromResponse | null;
  if (typeof r !== 'object' || r === null) throw new PromqlResultError('the answer is not a JSON object');
  if (r.status !== 'success') {
    throw new PromqlResultError(`Prometheus answered ${String(r.errorType ?? 'an error')}: ${String(r.error ?? 'no message')}`.slice(0, 500));
  }
  const type = r.data?.resultType;
  const result = r.data?.result;
  if (type === 'scalar') return sampleValue(result);
  if (type === 'vector') {
    if (!Array.isArray(result)) throw new PromqlResultError('malformed vector in the answer');
    if (result.length !== 1) throw new PromqlResultError(`the query answered ${result.length} series, not one`);
    return sampleValue((result[0] as { value?: unknown } | null)?.value);
  }
  throw new PromqlResultError(`the query answered a ${String(type)}, not a scalar or a one-element vector`);
}

/** Runs one instant query against Prometheus and answers its single value. */
export async function queryPrometheus(client: HttpClient, baseUrl: string, query: string, signal?: AbortSignal): Promise<number> {
  const body = new URLSearchParams({ query }).toString();
  const res = await client.request(`${baseUrl}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body,
    ...(signal === undefined ? {} : { signal }),
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch {
    if (res.statusCode >= 500) throw new UnavailableError(`Prometheus answered HTTP ${res.statusCode}`);
    throw new PromqlResultError(`Prometheus answered HTTP ${res.statusCode} without JSON`);
  }
  return valueOfAnswer(parsed);
}
