import http2 from 'node:http2';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { normalizeRequestTarget } from '@sluice/flowcontrol/http-path';
import { askAgent, interestOf } from '../check/ask-agent.js';
import { isSampledType, readBodyPrefix, type BodyPrefix } from '../proxy/body-prefix.js';
import type { TapContext } from '../handler.js';
import { denialHeaders } from '../proxy/denial.js';
import { answer, answerError, answerGrpc } from './answer.js';
import { forwardH2, type H2Call } from './forward.js';
import { grpcDenialHeaders, GrpcCode, isGrpcContentType, parseGrpcTimeout } from './grpc-status.js';
import { h2RequestOf, type H2Request } from './h2-request.js';
import type { H2Upstream } from './upstream.js';

const FAIL_CLOSED_MESSAGE = 'flow control is unavailable and the tap runs with --fail-closed';
const NO_H2_UPSTREAM = 'the tap forwards HTTP/2 requests to the workload only with --upstream-protocol h2c';

export interface H2Context extends TapContext {
  /** The workload's h2c connection; undefined when the tap speaks HTTP/1.1 to it. */
  h2Upstream: H2Upstream | undefined;
}

/** Why a request is refused before anyone is asked, with the status to answer; the target is put in normal form in place. */
function refusal(ctx: H2Context, head: H2Request): { status: number; message: string } | undefined {
  if (head.rawHeaders.length > ctx.maxRequestHeaders * 2) return { status: 431, message: `the request has more than ${ctx.maxRequestHeaders} header fields` };
  if (head.method === 'CONNECT') return { status: 501, message: 'CONNECT is not supported' };
  const t = normalizeRequestTarget(head.url, { mergeSlashes: ctx.mergeSlashes });
  if (!t.ok) return { status: 400, message: `the request target is refused: ${t.reason}` };
  head.url = t.target;
  return undefined;
}

/**
 * The HTTP/2 server's 'stream' handler: the same steps as an HTTP/1.1
 * request (refusals, the check, forward or deny, fail-open rules, metrics,
 * flow ends), with gRPC's own answers for a gRPC call: a denial is a status
 * in the trailers-only form (RESOURCE_EXHAUSTED for 429, UNAVAILABLE for 503,
 * grpc-retry-pushback-ms from the wait), and the check waits no longer than
 * the call's deadline (DEADLINE_EXCEEDED when the deadline ran out first).
 */
export function h2StreamHandler(ctx: H2Context): (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders?: string[]) => void {
  return (stream, headers, flags, rawHeaders) => {
    stream.on('error', (err) => ctx.logger.debug('client stream error', { error: err.message }));
    const grpc = isGrpcContentType(typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined);
    handle(ctx, stream, headers, flags, rawHeaders, grpc).catch((err: unknown) => {
      ctx.logger.error('request handling failed', { error: err instanceof Error ? err.message : String(err), protocol: 'h2' });
      if (!stream.headersSent) answerError(stream, grpc, 502, GrpcCode.UNAVAILABLE, 'the tap could not forward the request');
      else if (!stream.destroyed) stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    });
  };
}

async function handle(ctx: H2Context, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[] | undefined, grpc: boolean): Promise<void> {
  const started = Date.now();
  const head = h2RequestOf(stream, headers, rawHeaders);
  const problem = refusal(ctx, head);
  if (problem !== undefined) {
    answerError(stream, grpc, problem.status, GrpcCode.INVALID_ARGUMENT, problem.message);
    return;
  }
  const timeout = grpc ? parseGrpcTimeout(headers['grpc-timeout']) : undefined;
  if (timeout === null) {
    answerGrpc(stream, GrpcCode.INVALID_ARGUMENT, `malformed grpc-timeout "${String(headers['grpc-timeout'])}"`);
    return;
  }
  const deadline = timeout === undefined ? undefined : started + timeout;
  const ended = (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0;
  const checkTimeoutMs = deadline === undefined ? ctx.checkTimeoutMs : Math.min(ctx.checkTimeoutMs, deadline - Date.now());
  if (checkTimeoutMs <= 0) {
    answerGrpc(stream, GrpcCode.DEADLINE_EXCEEDED, 'the deadline passed before the request was checked');
    return;
  }
  // A JSON, form or text body is read (up to --body-bytes) when the agent's interest wants it, as over
  // HTTP/1.1; a gRPC body (binary frames) never is: it streams to the workload as it comes.
  const contentType = headers['content-type'];
  const sampled = !grpc && !ended && ctx.bodyBytes > 0 && isSampledType(typeof contentType === 'string' ? contentType : undefined);
  const readNow = sampled && interestOf(ctx).wantsBody();
  let prefix: BodyPrefix | undefined = readNow ? await readBodyPrefix(stream, ctx.bodyBytes, checkTimeoutMs) : undefined;
  const readLater = sampled && !readNow
    ? async () => {
      prefix = await readBodyPrefix(stream, ctx.bodyBytes, checkTimeoutMs);
      return prefix.sample;
    }
    : undefined;
  const verdict = await askAgent(ctx, head, prefix?.sample ?? { text: '', truncated: !ended }, readLater, checkTimeoutMs);
  if (stream.destroyed || stream.closed) return;
  const clipped = checkTimeoutMs < ctx.checkTimeoutMs;
  if (deadline !== undefined && (Date.now() >= deadline || (clipped && verdict.kind.startsWith('fail_') && 'reason' in verdict && verdict.reason === 'deadline'))) {
    // The client's deadline ran out while the agent decided: what the client's own deadline would say.
    answerGrpc(stream, GrpcCode.DEADLINE_EXCEEDED, 'the deadline passed while the request was checked');
    return;
  }
  const call: H2Call = { stream, head, headers, grpc, ended, deadline, ...(prefix === undefined ? {} : { prefix }) };
  switch (verdict.kind) {
    case 'ok':
    case 'fail_open': {
      const added = verdict.kind === 'ok' ? verdict.headers : [];
      const flow = verdict.kind === 'ok' ? verdict.flowEnd : undefined;
      if (ctx.h2Upstream === undefined) {
        ctx.logger.warn('HTTP/2 request not forwarded', { path: head.url, error: NO_H2_UPSTREAM });
        answerError(stream, grpc, 502, GrpcCode.UNAVAILABLE, NO_H2_UPSTREAM);
        return;
      }
      forwardH2(ctx, ctx.h2Upstream, call, added, flow);
      return;
    }
    case 'denied':
      if (grpc) {
        answer(stream, grpcDenialHeaders(verdict));
      } else {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of denialHeaders(verdict.headers, verdict.body)) {
          const prior = out[name];
          out[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
        }
        answer(stream, { ...out, ':status': verdict.status }, verdict.body);
      }
      return;
    case 'fail_closed':
      answerError(stream, grpc, 503, GrpcCode.UNAVAILABLE, FAIL_CLOSED_MESSAGE, grpc ? { 'grpc-retry-pushback-ms': '1000' } : { 'retry-after': '1' });
      return;
  }
}
