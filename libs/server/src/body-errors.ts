import { InvalidArgumentError, PayloadTooLargeError, UnsupportedMediaTypeError, type SluiceError } from '@sluice/errors';

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
