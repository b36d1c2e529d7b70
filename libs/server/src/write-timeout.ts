import type { RequestHandler, Response } from 'express';
import { GrpcCode } from '@sluice/errors';

/**
 * server.http.write_timeout. Responses in flight are kept with their
 * deadlines and one timer sweeps them (every tenth of the timeout, at most
 * every second), rather than a timer per request. A response not finished by
 * its deadline is answered 503 in the gateway shape (like Go's
 * TimeoutHandler), or, when its headers are already out, its connection is
 * cut; later writes by the handler are dropped. Long-poll routes must finish
 * well inside it.
 */
export function writeTimeoutMiddleware(timeoutMs: number): RequestHandler {
  if (timeoutMs <= 0) return (_req, _res, next) => next();
  const inFlight = new Map<Response, number>();
  const sweepMs = Math.max(10, Math.min(1000, Math.floor(timeoutMs / 10)));
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    const now = performance.now();
    for (const [res, deadline] of inFlight) {
      if (deadline <= now) {
        inFlight.delete(res);
        expire(res);
      }
    }
    if (inFlight.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return (_req, res, next) => {
    inFlight.set(res, performance.now() + timeoutMs);
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, sweepMs);
      sweeper.unref();
    }
    res.once('close', () => { inFlight.delete(res); });
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
