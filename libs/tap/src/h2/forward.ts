import http2 from 'node:http2';
import type { ClientHttp2Stream, IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { FlowToEnd } from '../check/flow-end.js';
import type { HeaderValue } from '../check/types.js';
import type { BodyPrefix } from '../proxy/body-prefix.js';
import { plainAddress } from '../proxy/forwarded.js';
import { BadUpstreamResponseError, reportFlowEnd, type ForwardContext } from '../proxy/forward-context.js';
import { acceptsTrailers, HOP_BY_HOP_HEADERS } from '../proxy/hop-by-hop.js';
import { classifyUpstreamError, UpstreamTimeoutError } from '../proxy/upstream-error.js';
import { answerable, answerError, answerGrpc } from './answer.js';
import { formatGrpcTimeout, GrpcCode } from './grpc-status.js';
import type { H2Request } from './h2-request.js';
import type { H2Upstream } from './upstream.js';

const { NGHTTP2_CANCEL, NGHTTP2_INTERNAL_ERROR, NGHTTP2_NO_ERROR, NGHTTP2_FLAG_END_STREAM } = http2.constants;

/** One HTTP/2 request on its way through the tap. */
export interface H2Call {
  stream: ServerHttp2Stream;
  head: H2Request;
  /** The client's header block as Node parsed it. */
  headers: IncomingHttpHeaders;
  /** A gRPC call (content type application/grpc). */
  grpc: boolean;
  /** The client's request ended with its head (no body). */
  ended: boolean;
  /** The gRPC deadline (ms since the epoch), when the call has one. */
  deadline: number | undefined;
  /** The body read for the check (sent first), when it was read. */
  prefix?: BodyPrefix;
}

/** Every field of `headers` but pseudo-headers and connection-specific ones (which HTTP/2 forbids). */
function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name of Object.keys(headers)) {
    if (name.charCodeAt(0) === 0x3a || HOP_BY_HOP_HEADERS.has(name)) continue;
    const value = headers[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Headers of the request to the workload: the client's method, path and
 * authority, its end-to-end fields, `te: trailers` when it asked for them,
 * X-Forwarded-*, what is left of a gRPC deadline as grpc-timeout, then the
 * headers the agent adds (they replace a field of the same name).
 */
export function h2UpstreamHeaders(call: H2Call, added: readonly HeaderValue[], now = Date.now()): OutgoingHttpHeaders {
  const { headers, head } = call;
  const out = endToEnd(headers);
  out[':method'] = head.method;
  out[':path'] = head.url;
  out[':scheme'] = 'http';
  if (head.headers.host !== undefined) out[':authority'] = head.headers.host;
  const te = headers.te;
  if (acceptsTrailers(Array.isArray(te) ? te.join(',') : te)) out['te'] = 'trailers';
  const client = plainAddress(head.socket.remoteAddress);
  const prior = headers['x-forwarded-for'];
  out['x-forwarded-for'] = prior === undefined || prior.length === 0 ? client : `${String(prior)}, ${client}`;
  if (headers['x-forwarded-proto'] === undefined) out['x-forwarded-proto'] = 'http';
  if (headers['x-forwarded-host'] === undefined && head.headers.host !== undefined) out['x-forwarded-host'] = head.headers.host;
  if (call.deadline !== undefined) out['grpc-timeout'] = formatGrpcTimeout(call.deadline - now);
  for (const h of added) out[h.key.toLowerCase()] = h.value;
  return out;
}

/** A response head or trailers from the workload as the client gets them: no connection-specific fields, no pseudo-header but :status. */
export function h2ClientHeaders(headers: IncomingHttpHeaders, keepStatus: boolean): OutgoingHttpHeaders {
  const out = endToEnd(headers);
  if (keepStatus && headers[':status'] !== undefined) out[':status'] = headers[':status'];
  return out;
}

/**
 * Sends the call to the workload over h2c and streams the answer back both
 * ways (request body up, response body down, with back-pressure), trailers
 * relayed. Until the workload's head arrives the upstream timeout holds
 * (afterwards a stream may be quiet for long: gRPC streams are); a gRPC
 * deadline ends the call at its time (DEADLINE_EXCEEDED before the head, a
 * cancel after). A workload that fails before its head gets the client a
 * 502/504 (a gRPC call: UNAVAILABLE / DEADLINE_EXCEEDED), after it the
 * client's stream is reset. Either side going away cancels the other.
 */
export function forwardH2(ctx: ForwardContext, upstream: H2Upstream, call: H2Call, added: readonly HeaderValue[], flow: FlowToEnd | undefined): void {
  const { stream } = call;
  let status = 0;
  let finished = false;
  let trailers: OutgoingHttpHeaders | undefined;
  let up: ClientHttp2Stream | undefined;
  const flowEnded = reportFlowEnd(ctx, flow, () => status || 502);

  const fail = (thrown: Error): void => {
    if (finished) return;
    finished = true;
    // A stream cancelled because its connection failed carries the connection's error (refused, reset…) as its cause.
    const err = (thrown as NodeJS.ErrnoException).code === 'ERR_HTTP2_STREAM_CANCEL' && thrown.cause instanceof Error ? thrown.cause : thrown;
    const { reason, status: httpStatus } = err instanceof BadUpstreamResponseError ? { reason: 'bad_response' as const, status: 502 as const } : classifyUpstreamError(err);
    ctx.metrics.upstreamError(reason);
    ctx.logger.warn('upstream request failed', { reason, error: err.message, method: call.head.method, path: call.head.url, protocol: 'h2c' });
    if (up !== undefined && !up.destroyed) up.close(NGHTTP2_CANCEL);
    if (answerable(stream)) {
      const timedOut = httpStatus === 504;
      answerError(stream, call.grpc, httpStatus, timedOut ? GrpcCode.DEADLINE_EXCEEDED : GrpcCode.UNAVAILABLE,
        timedOut ? 'the workload did not answer in time' : reason === 'bad_response' ? 'the workload sent a response the tap cannot relay' : 'the workload is unreachable');
    } else if (!stream.destroyed) {
      stream.close(NGHTTP2_INTERNAL_ERROR);
    }
  };

  stream.once('close', () => {
    finished = true;
    clearTimeout(deadlineTimer);
    if (up !== undefined && !up.destroyed) up.close(NGHTTP2_CANCEL);
    flowEnded?.();
  });
  const left = call.deadline === undefined ? undefined : call.deadline - Date.now();
  const deadlineTimer = left === undefined ? undefined : setTimeout(() => {
    if (finished) return;
    finished = true;
    ctx.logger.debug('gRPC deadline passed', { path: call.head.url });
    if (up !== undefined && !up.destroyed) up.close(NGHTTP2_CANCEL);
    if (answerable(stream)) answerGrpc(stream, GrpcCode.DEADLINE_EXCEEDED, 'the deadline passed');
    else if (!stream.destroyed) stream.close(NGHTTP2_CANCEL);
  }, Math.max(0, left));

  try {
    up = upstream.request(h2UpstreamHeaders(call, added), { endStream: call.ended || (call.prefix?.ended === true && call.prefix.chunks.length === 0) });
  } catch (err) {
    fail(err instanceof Error ? err : new Error(String(err)));
    return;
  }
  const upStream = up;
  if (ctx.upstreamTimeoutMs > 0) upStream.setTimeout(ctx.upstreamTimeoutMs, () => fail(new UpstreamTimeoutError(ctx.upstreamTimeoutMs)));
  upStream.on('error', (err) => fail(err));
  upStream.on('close', () => {
    if (finished || stream.destroyed) return;
    // Reset by the workload: the client's stream is reset too (before a head, it is an upstream failure).
    if (upStream.rstCode !== undefined && upStream.rstCode !== NGHTTP2_NO_ERROR) {
      if (answerable(stream)) fail(Object.assign(new Error(`the workload reset the stream (code ${upStream.rstCode})`), { code: 'ECONNRESET' }));
      else {
        finished = true;
        stream.close(upStream.rstCode);
      }
    }
  });
  upStream.on('response', (headers, flags) => {
    upStream.setTimeout(0);
    if (finished || stream.destroyed) return;
    status = Number(headers[':status']) || 502;
    const out = h2ClientHeaders(headers, true);
    try {
      if ((flags & NGHTTP2_FLAG_END_STREAM) !== 0) {
        // Trailers-only (a gRPC status without messages) or a response without a body.
        stream.respond(out, { endStream: true });
        return;
      }
      stream.respond(out, { waitForTrailers: true });
    } catch (err) {
      fail(new BadUpstreamResponseError(`the workload's response head cannot be relayed: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    upStream.pipe(stream);
  });
  upStream.on('trailers', (headers) => {
    trailers = h2ClientHeaders(headers, false);
  });
  stream.on('wantTrailers', () => {
    if (stream.destroyed) return;
    if (trailers !== undefined && Object.keys(trailers).length > 0) stream.sendTrailers(trailers);
    else if (call.grpc) stream.sendTrailers({ 'grpc-status': String(GrpcCode.INTERNAL), 'grpc-message': 'the workload ended the call without a status' });
    else stream.sendTrailers({});
  });
  if (call.ended) return;
  const prefix = call.prefix;
  if (prefix === undefined) {
    stream.pipe(upStream);
    return;
  }
  for (const chunk of prefix.chunks) upStream.write(chunk);
  if (prefix.ended) {
    if (prefix.chunks.length > 0) upStream.end();
  } else {
    stream.pipe(upStream);
  }
}
