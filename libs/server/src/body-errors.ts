import { InvalidArgumentError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, type SluiceError } from '@sluice/errors';

/**
 * A body-parser failure as the Sluice error it answers with: 413 over the
 * limit, 415 for an unsupported encoding or charset, 400 for a body that is
 * not JSON or any other client-side body problem. Undefined when `err` is not
 * a body-parser failure.
 */
export function bodyParserError(err: unknown, limitBytes?: number): SluiceError | undefined {
  const { type, status } = (typeof err === 'object' && err !== null ? err : {}) as { type?: unknown; status?: unknown };
  if (type === 'entity.too.large') {
    return new PayloadTooLargeError(limitBytes === undefined ? 'request body exceeds the limit' : `request body exceeds the limit of ${limitBytes} bytes`);
  }
  if (type === 'entity.parse.failed') return new InvalidArgumentError('request body is not valid JSON', 'body');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new UnsupportedMediaTypeError('unsupported body encoding');
  if (typeof type === 'string' && typeof status === 'number' && status < 500) return new InvalidArgumentError('bad request');
  return undefined;
}

/** Longest piece of a client's path quoted back in an error message. */
const MAX_QUOTED = 80;

/**
 * A client error raised by the router or a middleware before any handler (an `http-errors` style error
 * with a 4xx `status`), as the Sluice error it answers with, never a 500: a route parameter that is not
 * valid percent-encoding (`/preview/http_requests/%E0%A4%A`, router's URIError with status 400) is 400
 * INVALID_ARGUMENT. Undefined for anything else.
 */
export function routingClientError(err: unknown): SluiceError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return undefined;
  if (err instanceof URIError) {
    const raw = /'(.*)'$/s.exec(err.message)?.[1] ?? '';
    const shown = raw.length > MAX_QUOTED ? `${raw.slice(0, MAX_QUOTED)}...` : raw;
    return new InvalidArgumentError(`path parameter is not valid percent-encoding: ${JSON.stringify(shown)}`, 'path');
  }
  if (code === 404) return new NotFoundError('not found');
  if (code === 413) return new PayloadTooLargeError('request body exceeds the limit');
  if (code === 415) return new UnsupportedMediaTypeError('unsupported media type');
  return new InvalidArgumentError('bad request');
}
