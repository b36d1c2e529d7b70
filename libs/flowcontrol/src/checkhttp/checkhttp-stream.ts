import type * as grpc from '@grpc/grpc-js';
import { GrpcCode, InvalidArgumentError } from '@sluice/errors';
import { toGrpcStatus } from '@sluice/server';
import { decideCheckHttp, type CheckHttpDeps } from './checkhttp-decide.js';
import type { CheckHTTPStreamRequest__Output } from '@sluice/proto';
import type { CheckHTTPAnswer, CheckHTTPStreamAnswer } from '../wire/check-response-wire.js';
import { deadlineMsOf } from '../check/request-checks.js';

/** Default bound of decisions under way on one stream. */
export const CHECKHTTP_STREAM_MAX_IN_FLIGHT = 10_000;

/** Counters of the streams of one service, for observability and tests. */
export interface CheckHttpStreamStats {
  /** Streams open now. */
  streams: number;
  /** Asynchronous decisions under way, over all streams. */
  inFlight: number;
}

export interface CheckHttpStreamOptions {
  /**
   * Decisions under way on one stream past which a request is answered
   * RESOURCE_EXHAUSTED at once. Default CHECKHTTP_STREAM_MAX_IN_FLIGHT.
   */
  maxInFlight?: number;
  /** Kept up to date by the handler when given. */
  stats?: CheckHttpStreamStats;
}

type StreamCall = grpc.ServerDuplexStream<CheckHTTPStreamRequest__Output, CheckHTTPStreamAnswer>;

function errorAnswer(id: number, err: unknown): CheckHTTPStreamAnswer {
  const status = toGrpcStatus(err);
  return { id, response: null, code: status.code ?? GrpcCode.INTERNAL, message: status.details ?? 'internal error' };
}

/**
 * The CheckHTTPStream handler: every request on the stream is decided by
 * decideCheckHttp (as unary CheckHTTP decides it) and answered with its id,
 * as soon as its decision is there (so out of order when limiters answer
 * asynchronously). A request that cannot be decided gets its error code and
 * message; the stream goes on. Reading pauses while answers cannot be
 * written; the stream ends once the caller has half-closed it and every
 * answer is out. A cancelled stream drops the answers still to come.
 */
export function checkHttpStreamHandler(deps: CheckHttpDeps, opts: CheckHttpStreamOptions = {}): grpc.handleBidiStreamingCall<CheckHTTPStreamRequest__Output, CheckHTTPStreamAnswer> {
  const maxInFlight = opts.maxInFlight ?? CHECKHTTP_STREAM_MAX_IN_FLIGHT;
  const stats: CheckHttpStreamStats = opts.stats ?? { streams: 0, inFlight: 0 };
  return (call: StreamCall) => {
    const deadlineMs = deadlineMsOf(call.getDeadline());
    let open = true;
    let halfClosed = false;
    let inFlight = 0;
    let waitingForDrain = false;
    stats.streams++;
    // the checks still waiting (in a scheduler's queue) stop when the stream goes
    const gone = new AbortController();

    const close = (): void => {
      if (!open) return;
      open = false;
      stats.streams--;
      gone.abort();
    };
    const send = (answer: CheckHTTPStreamAnswer): void => {
      if (!open) return;
      if (!call.write(answer) && !waitingForDrain) {
        waitingForDrain = true;
        call.pause();
        call.once('drain', () => {
          waitingForDrain = false;
          if (open) call.resume();
        });
      }
    };
    const endIfDone = (): void => {
      if (open && halfClosed && inFlight === 0) {
        call.end();
        close();
      }
    };
    const settled = (): void => {
      inFlight--;
      stats.inFlight--;
      endIfDone();
    };

    call.on('data', (message: CheckHTTPStreamRequest__Output) => {
      const id = message.id;
      if (inFlight >= maxInFlight) {
        send({ id, response: null, code: GrpcCode.RESOURCE_EXHAUSTED, message: `more than ${maxInFlight} checks under way on this stream` });
        return;
      }
      let decision: CheckHTTPAnswer | Promise<CheckHTTPAnswer>;
      try {
        const request = message.request;
        if (request === null || request === undefined) throw new InvalidArgumentError('request is required', 'request');
        decision = decideCheckHttp(deps, request, deadlineMs, gone.signal);
      } catch (err) {
        send(errorAnswer(id, err));
        return;
      }
      if (!(decision instanceof Promise)) {
        send({ id, response: decision, code: GrpcCode.OK, message: '' });
        return;
      }
      inFlight++;
      stats.inFlight++;
      decision.then(
        (response) => send({ id, response, code: GrpcCode.OK, message: '' }),
        (err: unknown) => send(errorAnswer(id, err)),
      ).finally(settled);
    });
    call.on('end', () => {
      halfClosed = true;
      endIfDone();
    });
    call.on('cancelled', close);
    call.on('error', close);
    call.on('close', close);
  };
}
