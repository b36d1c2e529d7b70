import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderValue } from '../check/types.js';
import type { TapLogger } from '../logger.js';
import type { TapMetrics } from '../metrics.js';
import { hasBody, type BodyPrefix } from './body-prefix.js';
import { pipeBody } from './pipe-body.js';
import { classifyUpstreamError, UpstreamTimeoutError, writeGatewayError } from './upstream-error.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './upstream-headers.js';

export interface UpstreamTarget {
  host: string;
  port: number;
}

export interface ForwardContext {
  upstream: UpstreamTarget;
  /** Keep-alive agent for the workload's connections. */
  agent: http.Agent;
  /** Longest silence from the workload before 504 (0: none). */
  upstreamTimeoutMs: number;
  metrics: TapMetrics;
  logger: TapLogger;
  /** True once shutdown began: responses then close their connection. */
  draining(): boolean;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/**
 * Passes a 103 on to the client. Node refuses (throws on) a Link value it
 * cannot parse; such hints are dropped: they are only hints.
 */
function relayEarlyHints(res: ServerResponse, headers: http.IncomingHttpHeaders): void {
  if (res.headersSent) return;
  try {
    res.writeEarlyHints(headers as Record<string, string | string[]>);
  } catch {
    // A malformed Link from the workload.
  }
}

/**
 * Sends `req` to the workload and streams the answer back. The body goes
 * prefix first, then the rest of `req` with back-pressure. A request that
 * failed on a reused keep-alive connection before any answer is retried once
 * when that is safe (idempotent, body already in hand).
 */
export function forwardRequest(ctx: ForwardContext, req: IncomingMessage, res: ServerResponse, prefix: BodyPrefix, added: readonly HeaderValue[]): void {
  const headers = upstreamRequestHeaders(req, added);
  const replayable = IDEMPOTENT.has(req.method ?? '') && (prefix.ended || !hasBody(req));
  let clientGone = false;
  let current: http.ClientRequest | undefined;

  res.on('close', () => {
    if (!res.writableFinished) {
      clientGone = true;
      current?.destroy();
    }
  });

  const attempt = (retried: boolean): void => {
    const upReq = http.request({
      host: ctx.upstream.host,
      port: ctx.upstream.port,
      method: req.method,
      path: req.url,
      headers,
      agent: ctx.agent,
    });
    current = upReq;
    let answered = false;
    if (ctx.upstreamTimeoutMs > 0) {
      upReq.setTimeout(ctx.upstreamTimeoutMs, () => upReq.destroy(new UpstreamTimeoutError(ctx.upstreamTimeoutMs)));
    }
    upReq.on('continue', () => res.writeContinue());
    upReq.on('information', (info) => {
      if (info.statusCode === 103) relayEarlyHints(res, info.headers);
    });
    upReq.on('response', (upRes) => {
      answered = true;
      const out = clientResponseHeaders(upRes);
      if (ctx.draining()) out['connection'] = 'close';
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, out);
      upRes.on('error', () => res.destroy());
      upRes.on('aborted', () => res.destroy());
      pipeBody(upRes, res);
    });
    upReq.on('error', (err) => {
      if (clientGone) return;
      if (!answered && !retried && replayable && upReq.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        ctx.logger.debug('retrying on a fresh connection after a reset of a reused one', { path: req.url });
        attempt(true);
        return;
      }
      const { reason, status } = classifyUpstreamError(err);
      ctx.metrics.upstreamError(reason);
      ctx.logger.warn('upstream request failed', { reason, error: err.message, method: req.method, path: req.url });
      if (res.headersSent) {
        res.destroy(err);
        return;
      }
      // The client's body may be half-sent: close rather than read the rest.
      writeGatewayError(res, status, status === 504 ? GRPC_DEADLINE_EXCEEDED : GRPC_UNAVAILABLE,
        status === 504 ? 'the workload did not answer in time' : 'the workload is unreachable', !req.readableEnded);
    });
    pipeBody(req, upReq, prefix.chunks, prefix.ended);
  };
  attempt(false);
}
