import type { RequestHandler, Response } from 'express';
import { GrpcCode } from '@sluice/errors';

/**
 * server.http.write_timeout: a per-response timer. If the handler has not finished in time,
 * the request is answered 503 in the gateway shape (like Go's TimeoutHandler), or, when the
 * headers are already out, the connection is cut. Later writes by the handler are dropped.
 * Long-poll routes must finish well inside it.
 */
export function writeTimeoutMiddleware(timeoutMs: number): RequestHandler {
  return (_req, res, next) => {
    if (timeoutMs <= 0) {
      next();
      return;
    }
    const timer = setTimeout(() => expire(res), timeoutMs);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
    next();
  };
}

function expire(res: Response): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ code: GrpcCode.UNAVAILABLE, message: 'response not written within the write timeout', details: [] });
  res.writeHead(503, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
  // The handler may still try to answer: make its writes no-ops instead of throwing.
  const noop = function (this: Response): Response { return this; };
  res.setHeader = noop as unknown as Response['setHeader'];
  res.writeHead = noop as unknown as Response['writeHead'];
  res.write = (() => false) as unknown as Response['write'];
  res.end = noop as unknown as Response['end'];
  res.status = noop as unknown as Response['status'];
}
