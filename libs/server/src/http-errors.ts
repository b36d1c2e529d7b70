import type { ErrorRequestHandler, RequestHandler } from 'express';
import { NotFoundError } from '@sluice/errors';
import { bodyParserError, routingClientError } from './body-errors.js';
import type { Logger } from './types.js';
import { sendGatewayError } from './gateway.js';

/** Last in the chain: no route matched → 404 in the gateway shape. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendGatewayError(res, new NotFoundError(`no route for ${req.method} ${req.path}`));
};

/**
 * Last error handler: body-parser failures become 400/413/415, client errors raised while routing
 * (a route parameter with invalid percent-encoding) their 4xx, SluiceErrors keep their status,
 * anything else is a logged 500 with a generic message. Never crashes the process.
 */
export function errorHandler(logger: Logger | undefined): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const mapped = bodyParserError(err) ?? routingClientError(err) ?? err;
    if (mapped === err && !(err instanceof Error && 'grpcCode' in err)) {
      logger?.error('HTTP handler failed', { method: req.method, path: req.path, error: String(err) });
    }
    sendGatewayError(res, mapped);
  };
}
