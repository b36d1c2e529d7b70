import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FlowToEnd } from '../check/flow-end.js';
import type { HeaderValue } from '../check/types.js';
import { hasBody, type BodyPrefix } from './body-prefix.js';
import { BadUpstreamResponseError, reportFlowEnd, type ForwardContext } from './forward-context.js';
import { pipeBody, tooManyTrailers } from './pipe-body.js';
import { forwardPooled, pooledPathFits } from './pooled-forward.js';
import { responseCodingProblem, responseHeadCountProblem, writeRelayedHead } from './response-head.js';
import { drainAfterResponse, mustCloseUnread } from './unread-body.js';
import { classifyUpstreamError, UpstreamTimeoutError, writeGatewayError } from './upstream-error.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './upstream-headers.js';

export type { ForwardContext, UpstreamTarget } from './forward-context.js';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_INVALID_ARGUMENT = 3;

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
 * when that is safe (idempotent, body already in hand). Whatever the workload
 * sends ends in its response or a 502 for this request: a head Node will not
 * write, or a 101 to a request that asked for no upgrade, is a bad response.
 * A response that ends before the request body was sent stops the upload:
 * the rest of the body is drained (or the connection closed past a bound).
 */
export function forwardRequest(ctx: ForwardContext, req: IncomingMessage, res: ServerResponse, prefix: BodyPrefix, added: readonly HeaderValue[], flow: FlowToEnd | undefined): void {
  if (ctx.pool !== undefined && pooledPathFits(req, prefix)) {
    forwardPooled(ctx, ctx.pool, req, res, prefix, added, flow);
    return;
  }
  forwardStreaming(ctx, req, res, prefix, added, flow);
}

/** The node:http path: the body streams from the client as it comes. */
function forwardStreaming(ctx: ForwardContext, req: IncomingMessage, res: ServerResponse, prefix: BodyPrefix, added: readonly HeaderValue[], flow: FlowToEnd | undefined): void {
  const headers = upstreamRequestHeaders(req, added);
  const replayable = IDEMPOTENT.has(req.method ?? '') && (prefix.ended || !hasBody(req));
  let clientGone = false;
  let current: http.ClientRequest | undefined;
  let relayedStatus = 0;

  const flowEnded = reportFlowEnd(ctx, flow, () => relayedStatus || 502);
  res.on('close', () => {
    if (!res.writableFinished) {
      clientGone = true;
      current?.destroy();
    }
    flowEnded?.();
  });

  let failed = false;
  const fail = (err: Error, upReq: http.ClientRequest | undefined): void => {
    if (failed) return;
    failed = true;
    const { reason, status } = err instanceof BadUpstreamResponseError ? { reason: 'bad_response' as const, status: 502 as const } : classifyUpstreamError(err);
    ctx.metrics.upstreamError(reason);
    ctx.logger.warn('upstream request failed', { reason, error: err.message, method: req.method, path: req.url });
    upReq?.destroy();
    if (res.headersSent) {
      res.destroy(err);
      return;
    }
    // The client's body may be half-sent: close rather than read the rest.
    writeGatewayError(res, status, status === 504 ? GRPC_DEADLINE_EXCEEDED : GRPC_UNAVAILABLE,
      status === 504 ? 'the workload did not answer in time' : reason === 'bad_response' ? 'the workload sent a response the tap cannot relay' : 'the workload is unreachable',
      !req.readableEnded && !prefix.ended);
  };

  const attempt = (retried: boolean): void => {
    let upReq: http.ClientRequest;
    try {
      upReq = http.request({
        host: ctx.upstream.host,
        port: ctx.upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent: ctx.agent,
        maxHeaderSize: ctx.maxResponseHeaderBytes,
      });
    } catch (err) {
      // Bytes of the client's request line or headers that Node will not send.
      fail(err instanceof Error ? err : new Error(String(err)), undefined);
      return;
    }
    // Every field is kept (the head is bounded in bytes) and a head past the count is refused below:
    // Node's own count bound would cut the list short silently.
    upReq.maxHeadersCount = 0;
    current = upReq;
    let answered = false;
    let upResponse: IncomingMessage | undefined;
    if (ctx.upstreamTimeoutMs > 0) {
      upReq.setTimeout(ctx.upstreamTimeoutMs, () => upReq.destroy(new UpstreamTimeoutError(ctx.upstreamTimeoutMs)));
    }
    upReq.on('continue', () => res.writeContinue());
    upReq.on('information', (info) => {
      if (info.statusCode === 103) relayEarlyHints(res, info.headers);
    });
    // Node hands a 101 to 'upgrade' listeners, and without one it leaves the request hanging.
    upReq.on('upgrade', (_upRes, socket) => {
      socket.destroy();
      answered = true;
      fail(new BadUpstreamResponseError('the workload switched protocols on a request that asked for no upgrade'), upReq);
    });
    upReq.on('response', (upRes) => {
      answered = true;
      upResponse = upRes;
      const bodySent = upReq.writableEnded;
      const tooMany = responseHeadCountProblem(upRes.rawHeaders, ctx.maxResponseHeaders) ?? responseCodingProblem(upRes.rawHeaders);
      if (tooMany !== undefined) {
        upRes.resume();
        fail(new BadUpstreamResponseError(tooMany), upReq);
        return;
      }
      const out = clientResponseHeaders(upRes);
      if (ctx.draining() || (!bodySent && mustCloseUnread(req, prefix.ended))) out['connection'] = 'close';
      if (!writeRelayedHead(res, upRes.statusCode, upRes.statusMessage, out)) {
        upRes.resume();
        fail(new BadUpstreamResponseError(`the workload's response head cannot be relayed (status ${upRes.statusCode})`), upReq);
        return;
      }
      relayedStatus = upRes.statusCode ?? 502;
      upRes.on('error', () => res.destroy());
      upRes.on('aborted', () => res.destroy());
      if (!bodySent) {
        // The workload answered before it had the whole body: once its answer is over, stop the upload.
        upRes.once('end', () => {
          if (upReq.writableEnded) return;
          req.unpipe(upReq);
          upReq.destroy();
          drainAfterResponse(req, res);
        });
      }
      pipeBody(upRes, res, [], false, ctx.maxResponseHeaders, (count) => {
        // The head is out: the client sees the response break off rather than lose trailers unnoticed.
        ctx.metrics.upstreamError('bad_response');
        ctx.logger.warn('upstream response refused', { reason: 'bad_response', error: tooManyTrailers("workload's response", count, ctx.maxResponseHeaders), path: req.url });
        upRes.destroy();
        res.destroy();
      });
    });
    upReq.on('error', (err) => {
      if (clientGone || failed) return;
      if (upResponse?.complete === true) return; // the upload broke off after a whole answer
      if (!answered && !retried && replayable && upReq.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        ctx.logger.debug('retrying on a fresh connection after a reset of a reused one', { path: req.url });
        attempt(true);
        return;
      }
      fail(err, undefined);
    });
    pipeBody(req, upReq, prefix.chunks, prefix.ended, ctx.maxRequestHeaders, (count) => {
      // The workload never gets the end of this body: its request is aborted, the client answered 431.
      if (failed) return;
      failed = true;
      const message = tooManyTrailers('request', count, ctx.maxRequestHeaders);
      ctx.logger.warn('request refused', { reason: 'too_many_trailers', error: message, path: req.url });
      upReq.destroy();
      if (res.headersSent) res.destroy();
      else writeGatewayError(res, 431, GRPC_INVALID_ARGUMENT, message, true);
    });
  };
  attempt(false);
}
