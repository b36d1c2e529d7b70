import type http2 from 'node:http2';
import { failOpenReason, type FailOpenReason } from './fail-open.js';
import { GrpcCall, GrpcCode, type CallStatus } from './grpc-call.js';
import { requestFrame } from './request-encoding.js';
import { decodeCheckAnswer, type CheckAnswer } from './stream-answer.js';
import type { CheckHTTPRequest } from './types.js';

/** The agent's answer, or why there is none. */
export type CheckOutcome =
  | { kind: 'answer'; response: CheckAnswer }
  | { kind: 'failed'; reason: FailOpenReason; error: Error };

export function failed(reason: FailOpenReason, error: unknown): CheckOutcome {
  return { kind: 'failed', reason, error: error instanceof Error ? error : new Error(String(error)) };
}

/** Opens a stream with these request headers; undefined when there is no connection to open it on. */
export type OpenRequest = (headers: http2.OutgoingHttpHeaders) => http2.ClientHttp2Stream | undefined;

/** The request headers of a gRPC call to `path`, with `grpc-timeout` when given (milliseconds). */
export function grpcHeaders(path: string, timeoutMs?: number): http2.OutgoingHttpHeaders {
  const headers: http2.OutgoingHttpHeaders = {
    ':method': 'POST',
    ':path': path,
    'content-type': 'application/grpc',
    te: 'trailers',
    'user-agent': 'sluice-tap',
  };
  // At most 8 digits (gRPC's limit); a longer wait is sent in seconds.
  if (timeoutMs !== undefined) headers['grpc-timeout'] = timeoutMs < 1e8 ? `${Math.max(1, Math.ceil(timeoutMs))}m` : `${Math.ceil(timeoutMs / 1000)}S`;
  return headers;
}

/**
 * One unary CheckHTTP call to `path` with a deadline (sent as grpc-timeout,
 * and kept here too); never throws, reports a failure instead.
 */
export function unaryCheck(open: OpenRequest, path: string, request: CheckHTTPRequest, deadline: number): Promise<CheckOutcome> {
  return new Promise((resolve) => {
    const left = deadline - Date.now();
    if (left <= 0) return resolve(failed('deadline', new Error('the check deadline passed before it was sent')));
    let answer: CheckAnswer | undefined;
    let problem: CallStatus | undefined;
    const settle = (status: CallStatus): void => {
      // Status events come asynchronously, after the timer below is set.
      clearTimeout(timer);
      const s = problem ?? status;
      if (s.code !== GrpcCode.OK) resolve(failed(failOpenReason(s), new Error(`CheckHTTP ended: ${s.code} ${s.details}`)));
      else if (answer === undefined) resolve(failed('error', new Error('empty CheckHTTP response')));
      else resolve({ kind: 'answer', response: answer });
    };
    let frame: Buffer;
    try {
      frame = requestFrame(request);
    } catch (err) {
      return resolve(failed('error', err));
    }
    const stream = open(grpcHeaders(path, left));
    if (stream === undefined) return resolve(failed('unavailable', new Error('no connection to the agent')));
    const call = new GrpcCall(stream, {
      message(body) {
        if (answer !== undefined) {
          problem ??= { code: GrpcCode.INTERNAL, details: 'more than one answer to a unary call' };
          return;
        }
        try {
          answer = decodeCheckAnswer(body);
        } catch (err) {
          problem ??= { code: GrpcCode.INTERNAL, details: `an answer that does not decode: ${err instanceof Error ? err.message : String(err)}` };
        }
      },
      status: settle,
    });
    const timer = setTimeout(() => {
      problem ??= { code: GrpcCode.DEADLINE_EXCEEDED, details: 'deadline exceeded' };
      call.cancel();
    }, left);
    call.write(frame);
    call.end();
  });
}
