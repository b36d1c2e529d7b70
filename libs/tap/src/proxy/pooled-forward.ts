import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool } from 'undici';
import type { FlowToEnd } from '../check/flow-end.js';
import type { HeaderValue } from '../check/types.js';
import type { BodyPrefix } from './body-prefix.js';
import { connectionListedHeaders, HOP_BY_HOP_HEADERS } from './hop-by-hop.js';
import { tooManyTrailers } from './pipe-body.js';
import { relayableStatus, responseCodingProblem, responseHeadCountProblem, safeReason } from './response-head.js';
import { classifyUpstreamError, writeGatewayError } from './upstream-error.js';
import { upstreamRequestHeaders } from './upstream-headers.js';
import { BadUpstreamResponseError, reportFlowEnd, type ForwardContext } from './forward-context.js';

/**
 * undici's Pool class from its own module, the one the package's index exports: the index also
 * loads fetch, WebSocket, EventSource, the caches and the mocks, which the tap never uses
 * (about 9 MB of a tap's memory at start).
 */
const Pool = createRequire(import.meta.url)('undici/lib/dispatcher/pool') as typeof UndiciPool;

/** The workload's connections for the common path: undici's pool (keep-alive, no pipelining). */
export function createUpstreamPool(upstream: { host: string; port: number }, opts: { upstreamTimeoutMs: number; maxResponseHeaderBytes: number }): UndiciPool {
  const host = upstream.host.includes(':') ? `[${upstream.host}]` : upstream.host;
  return new Pool(`http://${host}:${upstream.port}`, {
    connections: null,
    pipelining: 1,
    // "Silence from the workload": before the head, and between body chunks.
    headersTimeout: opts.upstreamTimeoutMs,
    bodyTimeout: opts.upstreamTimeoutMs,
    maxHeaderSize: opts.maxResponseHeaderBytes,
    keepAliveTimeout: 4_000,
  });
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;
const EMPTY = Buffer.alloc(0);

/**
 * Whether a request can take the pooled path: its whole body is in hand (or it
 * has none), it waits for no 100, sends no trailers and asks for no upgrade
 * (upgrades have their own handler). The rest goes through node:http.
 */
export function pooledPathFits(req: IncomingMessage, prefix: BodyPrefix): boolean {
  // undici takes origin-form targets only: `OPTIONS *` goes through node:http as it came (absolute-form was made origin-form).
  if (req.url === undefined || req.url.charCodeAt(0) !== 0x2f /* / */) return false;
  const h = req.headers;
  if (h.expect !== undefined || h['transfer-encoding'] !== undefined) return false;
  if (prefix.ended) return true;
  const cl = h['content-length'];
  return cl === undefined || cl === '0';
}

/** The response head for the client from undici's raw header list: end-to-end fields only, as a flat [name, value, ...] list. */
function clientHeaderList(raw: Buffer[], draining: boolean): string[] {
  const out: string[] = [];
  let listed: Set<string> | undefined;
  let chunked = false;
  let trailer: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString('latin1');
    const lower = name.toLowerCase();
    if (HOP_BY_HOP_HEADERS.has(lower)) {
      if (lower === 'connection') listed = connectionListedHeaders((raw[i + 1] as Buffer).toString('latin1'));
      else if (lower === 'transfer-encoding') chunked = true;
      else if (lower === 'trailer') trailer = (raw[i + 1] as Buffer).toString('latin1');
      continue;
    }
    out.push(name, (raw[i + 1] as Buffer).toString('latin1'));
  }
  // The Trailer announcement of a chunked body stays: the trailers are relayed.
  if (chunked && trailer !== undefined) out.push('trailer', trailer);
  if (listed !== undefined && listed.size > 0) {
    for (let i = out.length - 2; i >= 0; i -= 2) if (listed.has((out[i] as string).toLowerCase())) out.splice(i, 2);
  }
  if (draining) out.push('connection', 'close');
  return out;
}

/**
 * Sends a request whose body is in hand through the pool and streams the
 * answer back with back-pressure. The same contract as the node:http path: a
 * head Node will not write, a 101 or any failure before the head is a 502
 * (504 when the workload is silent too long) for this request alone; an
 * idempotent request that fails before any answer is tried once more.
 */
export function forwardPooled(ctx: ForwardContext, pool: UndiciPool, req: IncomingMessage, res: ServerResponse, prefix: BodyPrefix, added: readonly HeaderValue[], flow: FlowToEnd | undefined): void {
  const headers = upstreamRequestHeaders(req, added);
  const body = prefix.chunks.length === 0 ? EMPTY : prefix.chunks.length === 1 ? (prefix.chunks[0] as Buffer) : Buffer.concat(prefix.chunks);
  const method = req.method ?? 'GET';
  const replayable = IDEMPOTENT.has(method);
  let relayedStatus = 0;
  let abort: ((err?: Error) => void) | undefined;
  let finished = false;
  const flowEnded = reportFlowEnd(ctx, flow, () => relayedStatus || 502);
  res.on('close', () => {
    if (!res.writableFinished && !finished) abort?.(new Error('the client went away'));
    finished = true;
    flowEnded?.();
  });

  const fail = (err: Error): void => {
    if (finished) return;
    finished = true;
    const { reason, status } = err instanceof BadUpstreamResponseError ? { reason: 'bad_response' as const, status: 502 as const } : classifyUpstreamError(err);
    ctx.metrics.upstreamError(reason);
    ctx.logger.warn('upstream request failed', { reason, error: err.message, method, path: req.url });
    if (res.headersSent) {
      res.destroy(err);
      return;
    }
    writeGatewayError(res, status, status === 504 ? GRPC_DEADLINE_EXCEEDED : GRPC_UNAVAILABLE,
      status === 504 ? 'the workload did not answer in time' : reason === 'bad_response' ? 'the workload sent a response the tap cannot relay' : 'the workload is unreachable');
  };

  const attempt = (retried: boolean): void => {
    let answered = false;
    let resume: (() => void) | undefined;
    const onDrain = (): void => resume?.();
    const handler: Dispatcher.DispatchHandler = {
      onConnect(a) {
        abort = a;
        if (finished) a(new Error('the client went away'));
      },
      onHeaders(statusCode, rawHeaders, resumeFn, statusText) {
        if (statusCode < 200) {
          if (statusCode === 103 && !res.headersSent) {
            try {
              const hints: Record<string, string> = {};
              const list = clientHeaderList(rawHeaders, false);
              for (let i = 0; i + 1 < list.length; i += 2) hints[(list[i] as string).toLowerCase()] = list[i + 1] as string;
              res.writeEarlyHints(hints);
            } catch {
              // Only a hint.
            }
          }
          return true;
        }
        answered = true;
        if (finished) return false;
        if (!relayableStatus(statusCode)) {
          abort?.(new BadUpstreamResponseError(`the workload answered status ${statusCode}`));
          return false;
        }
        const tooMany = responseHeadCountProblem(rawHeaders, ctx.maxResponseHeaders) ?? responseCodingProblem(rawHeaders);
        if (tooMany !== undefined) {
          abort?.(new BadUpstreamResponseError(tooMany));
          return false;
        }
        try {
          res.writeHead(statusCode, safeReason(statusCode, statusText), clientHeaderList(rawHeaders, ctx.draining()));
        } catch {
          for (const name of res.getHeaderNames()) res.removeHeader(name);
          abort?.(new BadUpstreamResponseError(`the workload's response head cannot be relayed (status ${statusCode})`));
          return false;
        }
        relayedStatus = statusCode;
        resume = resumeFn;
        return true;
      },
      onData(chunk) {
        if (finished) return false;
        if (res.write(chunk)) return true;
        res.once('drain', onDrain);
        return false;
      },
      onComplete(trailers) {
        if (finished) return;
        finished = true;
        if (trailers !== null && trailers.length > ctx.maxResponseHeaders * 2) {
          // The head is out: the client sees the response break off rather than lose trailers unnoticed.
          ctx.metrics.upstreamError('bad_response');
          ctx.logger.warn('upstream response refused', { reason: 'bad_response', error: tooManyTrailers("workload's response", trailers.length / 2, ctx.maxResponseHeaders), path: req.url });
          res.destroy();
          return;
        }
        if (trailers !== null && trailers.length > 0) {
          try {
            const t: Record<string, string> = {};
            for (let i = 0; i + 1 < trailers.length; i += 2) t[String(trailers[i])] = String(trailers[i + 1]);
            res.addTrailers(t);
          } catch {
            // A trailer Node will not write.
          }
        }
        res.end();
      },
      onError(err) {
        if (finished) return;
        // undici's word for a 101 to a request that asked for no upgrade.
        if (err.message === 'bad upgrade') err = new BadUpstreamResponseError('the workload switched protocols on a request that asked for no upgrade');
        if (!answered && !retried && replayable && retryable(err)) {
          ctx.logger.debug('retrying on a fresh connection after a failure before any answer', { path: req.url, error: err.message });
          attempt(true);
          return;
        }
        fail(err);
      },
      onUpgrade() {
        // Only reached for requests that asked for an upgrade, which do not come this way.
        fail(new BadUpstreamResponseError('the workload switched protocols on a request that asked for no upgrade'));
      },
    };
    // reset: false keeps the connection after HEAD, as node:http does (undici closes it by default).
    pool.dispatch({ path: req.url ?? '/', method: method as Dispatcher.HttpMethod, headers: headers as Record<string, string | string[]>, body: body.length > 0 ? body : null, reset: false }, handler);
  };
  attempt(false);
}

/** A failure on a kept-alive connection before any answer: worth one more try for an idempotent request. */
function retryable(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}
