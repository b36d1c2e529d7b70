import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { askAgent, interestOf, type AskContext, type Verdict } from './check/ask-agent.js';
import { hasBody, readBodyPrefix, unreadBody, wantsBodySample, type BodyPrefix } from './proxy/body-prefix.js';
import { denialHeaders, writeDenial } from './proxy/denial.js';
import { forwardRequest, type ForwardContext } from './proxy/forward.js';
import { endRawResponse } from './proxy/raw-response.js';
import { requestHeadProblem, type HeadProblem } from './proxy/request-head.js';
import { normalizeTarget } from './proxy/request-target.js';
import { drainAfterResponse, mustCloseUnread } from './proxy/unread-body.js';
import { forwardUpgrade, type TunnelSet } from './proxy/upgrade.js';
import { writeGatewayError } from './proxy/upstream-error.js';

export interface TapContext extends AskContext, ForwardContext {
  /** Bytes of body sent with the check (0: none). */
  bodyBytes: number;
  tunnels: TunnelSet;
  /** Merge runs of `/` in request paths. */
  mergeSlashes: boolean;
}

const FAIL_CLOSED_MESSAGE = 'flow control is unavailable and the tap runs with --fail-closed';
const GRPC_UNAVAILABLE = 14;
const GRPC_INVALID_ARGUMENT = 3;

function expectsContinue(req: IncomingMessage): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && expect.toLowerCase().includes('100-continue');
}

/**
 * The 'request' (and 'checkContinue') handler: read the body prefix when it
 * is worth it, ask the agent, then forward or answer the denial. With
 * Expect: 100-continue the body is not waited for: the 100 comes from the
 * workload once the request is let through.
 */
export function requestHandler(ctx: TapContext): (req: IncomingMessage, res: ServerResponse) => void {
  const failed = (res: ServerResponse, err: unknown): void => {
    ctx.logger.error('request handling failed', { error: err instanceof Error ? err.message : String(err) });
    if (!res.headersSent) writeGatewayError(res, 502, GRPC_UNAVAILABLE, 'the tap could not forward the request', true);
    else res.destroy();
  };
  return (req, res) => {
    try {
      const pending = handle(ctx, req, res);
      if (pending !== undefined) pending.catch((err: unknown) => failed(res, err));
    } catch (err) {
      failed(res, err);
    }
  };
}

/**
 * What is wrong with a request before anyone is asked about it: its head
 * (requestHeadProblem), or a target refused as ambiguous (400). A target in
 * another form is put in normal form here, in place, so that the agent is
 * asked about the target the workload is sent.
 */
function refusal(ctx: TapContext, req: IncomingMessage): HeadProblem | undefined {
  const problem = requestHeadProblem(req, ctx.maxRequestHeaders);
  if (problem !== undefined) return problem;
  const reason = normalizeTarget(req, ctx.mergeSlashes);
  return reason === undefined ? undefined : { status: 400, message: `the request target is refused: ${reason}` };
}

/**
 * Handles one request: at once (no promise) when nothing has to be waited for (no body to read
 * for the check, the checker answering at once), else a promise of its end.
 */
function handle(ctx: TapContext, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  const problem = refusal(ctx, req);
  if (problem !== undefined) {
    writeGatewayError(res, problem.status, GRPC_INVALID_ARGUMENT, problem.message, true);
    return undefined;
  }
  const waitsForContinue = expectsContinue(req);
  // The body is read for the agent only when it is a kind worth sampling and the agent's interest wants it;
  // if the agent then asks again unfiltered, it is read for the second ask.
  const sampled = !waitsForContinue && wantsBodySample(req, ctx.bodyBytes);
  if (sampled) return handleSampled(ctx, req, res);
  const prefix = unreadBody(req);
  const verdict = askAgent(ctx, req, prefix.sample);
  if (!(verdict instanceof Promise)) {
    act(ctx, req, res, waitsForContinue, prefix, verdict);
    return undefined;
  }
  const gone = clientGoneFlag(res);
  return verdict.then((v) => {
    if (!gone.value) act(ctx, req, res, waitsForContinue, prefix, v);
  });
}

/** Whether the client has gone (the response closed) since the call: set by the response's 'close'. */
function clientGoneFlag(res: ServerResponse): { value: boolean } {
  const gone = { value: false };
  res.once('close', () => { gone.value = true; });
  return gone;
}

/** A request whose body is sampled for the check: read before the ask when the interest wants it, or for a second, unfiltered ask. */
async function handleSampled(ctx: TapContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const gone = clientGoneFlag(res);
  const readNow = interestOf(ctx).wantsBody();
  let prefix = readNow ? await readBodyPrefix(req, ctx.bodyBytes, ctx.checkTimeoutMs) : unreadBody(req);
  const readLater = !readNow
    ? async () => {
      prefix = await readBodyPrefix(req, ctx.bodyBytes, ctx.checkTimeoutMs);
      return prefix.sample;
    }
    : undefined;
  const verdict = await askAgent(ctx, req, prefix.sample, readLater);
  if (gone.value) return;
  act(ctx, req, res, false, prefix, verdict);
}

/** Forwards the request, or answers its denial (or the fail-closed refusal). */
function act(ctx: TapContext, req: IncomingMessage, res: ServerResponse, waitsForContinue: boolean, prefix: BodyPrefix, verdict: Verdict): void {
  switch (verdict.kind) {
    case 'ok':
      forwardRequest(ctx, req, res, prefix, verdict.headers, verdict.flowEnd);
      return;
    case 'fail_open':
      forwardRequest(ctx, req, res, prefix, [], undefined);
      return;
    case 'denied':
    case 'fail_closed': {
      // A client that waits for 100 never sends the body of a refused request: close instead of reading it.
      // Any other unread body is drained after the answer (closing past a bound), so the connection lives on.
      const closeAfter = ctx.draining() || (waitsForContinue && hasBody(req)) || mustCloseUnread(req, prefix.ended);
      if (!closeAfter) drainAfterResponse(req, res);
      if (verdict.kind === 'denied') {
        writeDenial(res, verdict.status, verdict.headers, verdict.body, closeAfter);
      } else {
        res.setHeader('retry-after', '1');
        writeGatewayError(res, 503, GRPC_UNAVAILABLE, FAIL_CLOSED_MESSAGE, closeAfter);
      }
      return;
    }
  }
}

/**
 * The 'upgrade' handler: ask the agent, then tunnel to the workload or answer
 * the denial on the raw socket. The HTTP server lets go of an upgraded socket
 * at once, so it joins the tunnels from here on, for shutdown to end it.
 */
export function upgradeHandler(ctx: TapContext): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    ctx.tunnels.add(socket);
    socket.once('close', () => ctx.tunnels.delete(socket));
    const problem = refusal(ctx, req);
    if (problem !== undefined) {
      endRawResponse(socket, problem.status, [['content-type', 'application/json']],
        JSON.stringify({ code: GRPC_INVALID_ARGUMENT, message: problem.message, details: [] }));
      return;
    }
    // A throw while asking is a rejection here, as an answer at once is a resolved promise.
    new Promise<Verdict>((resolve) => { resolve(askAgent(ctx, req, unreadBody(req).sample)); }).then((verdict) => {
      if (socket.destroyed) return;
      switch (verdict.kind) {
        case 'ok':
          // The flow of a tunnel ends when the workload has answered the upgrade (see forwardUpgrade).
          forwardUpgrade(ctx, req, socket, head, verdict.headers, verdict.flowEnd);
          return;
        case 'fail_open':
          forwardUpgrade(ctx, req, socket, head, [], undefined);
          return;
        case 'denied':
          endRawResponse(socket, verdict.status, denialHeaders(verdict.headers, verdict.body), verdict.body);
          return;
        case 'fail_closed':
          endRawResponse(socket, 503, [['content-type', 'application/json'], ['retry-after', '1']],
            JSON.stringify({ code: GRPC_UNAVAILABLE, message: FAIL_CLOSED_MESSAGE, details: [] }));
          return;
      }
    }).catch((err: unknown) => {
      ctx.logger.error('upgrade handling failed', { error: err instanceof Error ? err.message : String(err) });
      socket.destroy();
    });
  };
}
