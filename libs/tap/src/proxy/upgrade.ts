import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FlowToEnd } from '../check/flow-end.js';
import type { HeaderValue } from '../check/types.js';
import { reportFlowEnd, type ForwardContext } from './forward-context.js';
import { HOP_BY_HOP_HEADERS } from './hop-by-hop.js';
import { endRawResponse, rawHeaderPairs, rawResponseHead } from './raw-response.js';
import { relayableStatus, responseCodingProblem, responseHeadCountProblem } from './response-head.js';
import { classifyUpstreamError, UpstreamTimeoutError } from './upstream-error.js';
import { upstreamRequestHeaders } from './upstream-headers.js';
import { GrpcCode } from '@sluice/errors';

/** Sockets of Upgrade requests (being checked, or tunnelled), so that shutdown can end them. */
export type TunnelSet = Set<Duplex>;

/**
 * Forwards an Upgrade request (WebSocket, for one) on a dedicated connection
 * to the workload. On 101 the two sockets are joined and bytes flow both ways
 * untouched; any other answer is relayed and the client connection closed.
 */
export function forwardUpgrade(ctx: ForwardContext, req: IncomingMessage, socket: Duplex, head: Buffer, added: readonly HeaderValue[], flow: FlowToEnd | undefined): void {
  const headers = upstreamRequestHeaders(req, added);
  headers['connection'] = 'upgrade';
  headers['upgrade'] = req.headers.upgrade ?? '';
  let status = 502;
  // The flow of a tunnel ends when the workload has answered the upgrade (its status) or failed.
  const flowEnded = reportFlowEnd(ctx, flow, () => status);
  let upReq: http.ClientRequest;
  try {
    upReq = http.request({ host: ctx.upstream.host, port: ctx.upstream.port, method: req.method, path: req.url, headers, agent: false, maxHeaderSize: ctx.maxResponseHeaderBytes });
  } catch (err) {
    ctx.metrics.upstreamError('bad_response');
    ctx.logger.warn('upstream upgrade failed', { reason: 'bad_request', error: err instanceof Error ? err.message : String(err), path: req.url });
    endRawResponse(socket, 502, [['Content-Type', 'application/json']], JSON.stringify({ code: GrpcCode.UNAVAILABLE, message: 'the tap could not forward the request', details: [] }));
    flowEnded?.();
    return;
  }
  upReq.maxHeadersCount = 0; // every field kept; a head past the count is refused below
  const badHead = (): void => {
    ctx.metrics.upstreamError('bad_response');
    endRawResponse(socket, 502, [['Content-Type', 'application/json']], JSON.stringify({ code: GrpcCode.UNAVAILABLE, message: 'the workload sent a response the tap cannot relay', details: [] }));
    flowEnded?.();
  };
  if (ctx.upstreamTimeoutMs > 0) {
    upReq.setTimeout(ctx.upstreamTimeoutMs, () => upReq.destroy(new UpstreamTimeoutError(ctx.upstreamTimeoutMs)));
  }
  const onClientGone = (): void => {
    flowEnded?.();
    upReq.destroy();
  };
  socket.once('close', onClientGone);

  upReq.on('upgrade', (upRes, upSocket, upHead) => {
    if (responseHeadCountProblem(upRes.rawHeaders, ctx.maxResponseHeaders) !== undefined) {
      upSocket.destroy();
      badHead();
      return;
    }
    status = 101;
    flowEnded?.();
    socket.off('close', onClientGone);
    upSocket.setTimeout(0);
    const pairs = rawHeaderPairs(upRes.rawHeaders);
    socket.write(rawResponseHead(101, upRes.statusMessage, pairs));
    if (upHead.length > 0) socket.write(upHead);
    if (head.length > 0) upSocket.write(head);
    const closeBoth = (): void => {
      socket.destroy();
      upSocket.destroy();
    };
    socket.on('close', closeBoth);
    upSocket.on('close', closeBoth);
    upSocket.on('error', closeBoth);
    socket.on('error', closeBoth);
    socket.pipe(upSocket);
    upSocket.pipe(socket);
  });

  upReq.on('response', (upRes) => {
    // The workload declined the upgrade: relay its answer, then close.
    if (!relayableStatus(upRes.statusCode) || responseHeadCountProblem(upRes.rawHeaders, ctx.maxResponseHeaders) !== undefined
      || responseCodingProblem(upRes.rawHeaders) !== undefined) {
      upRes.destroy();
      badHead();
      return;
    }
    status = upRes.statusCode;
    flowEnded?.();
    const pairs = rawHeaderPairs(upRes.rawHeaders).filter(([n]) => !HOP_BY_HOP_HEADERS.has(n.toLowerCase()) && n.toLowerCase() !== 'content-length');
    pairs.push(['Connection', 'close']);
    socket.write(rawResponseHead(upRes.statusCode ?? 502, upRes.statusMessage, pairs));
    upRes.pipe(socket);
    upRes.on('error', () => socket.destroy());
  });

  upReq.on('error', (err) => {
    flowEnded?.();
    if (socket.destroyed) return;
    const { reason, status } = classifyUpstreamError(err);
    ctx.metrics.upstreamError(reason);
    ctx.logger.warn('upstream upgrade failed', { reason, error: err.message, path: req.url });
    const message = status === 504 ? 'the workload did not answer in time' : 'the workload is unreachable';
    endRawResponse(socket, status, [['Content-Type', 'application/json']], JSON.stringify({ code: status === 504 ? 4 : 14, message, details: [] }));
  });
  upReq.end();
}
