import type { ErrorRequestHandler, RequestHandler } from 'express';
import { InvalidArgumentError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '@sluice/errors';
import type { Logger } from './types.js';
import { sendGatewayError } from './gateway.js';

/** Last in the chain: no route matched → 404 in the gateway shape. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendGatewayError(res, new NotFoundError(`no route for ${req.method} ${req.path}`));
};

/**
 * Last error handler: body-parser failures become 400/413/415, SluiceErrors keep their status,
 * anything else is a logged 500 with a generic message. Never crashes the process.
 */
export function errorHandler(logger: Logger | undefined): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const type = (err as { type?: unknown } | null)?.type;
    let mapped = err;
    if (type === 'entity.too.large') mapped = new PayloadTooLargeError('request body exceeds the limit');
    else if (type === 'entity.parse.failed') mapped = new InvalidArgumentError('request body is not valid JSON', 'body');
    else if (type === 'encoding.unsupported' || type === 'charset.unsupported') mapped = new UnsupportedMediaTypeError('unsupported body encoding');
    else if (typeof (err as { status?: unknown } | null)?.status === 'number' && (err as { status: number }).status < 500 && typeof type === 'string') {
      mapped = new InvalidArgumentError('bad request');
    } else if (!(err instanceof Error && 'grpcCode' in err)) {
      logger?.error('HTTP handler failed', { method: req.method, path: req.path, error: String(err) });
    }
    sendGatewayError(res, mapped);
  };
}
