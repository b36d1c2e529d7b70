import type * as grpc from '@grpc/grpc-js';
import { failOpenReason, type FailOpenReason } from './fail-open.js';
import type { CheckHTTPRequest } from '@sluice/proto';
import type { CheckAnswer } from './stream-answer.js';

/** The agent's answer, or why there is none. */
export type CheckOutcome =
  | { kind: 'answer'; response: CheckAnswer }
  | { kind: 'failed'; reason: FailOpenReason; error: Error };

/** The unary CheckHTTP method of a FlowControlServiceHTTP client. */
export type CheckHTTPMethod = (
  request: CheckHTTPRequest,
  options: grpc.CallOptions,
  callback: (err: grpc.ServiceError | null, response?: CheckAnswer) => void,
) => grpc.ClientUnaryCall;

export function failed(reason: FailOpenReason, error: unknown): CheckOutcome {
  return { kind: 'failed', reason, error: error instanceof Error ? error : new Error(String(error)) };
}

/** One unary CheckHTTP call with a deadline; never throws, reports a failure instead. */
export function unaryCheck(call: CheckHTTPMethod, request: CheckHTTPRequest, deadline: number): Promise<CheckOutcome> {
  return new Promise((resolve) => {
    try {
      call(request, { deadline }, (err, response) => {
        if (err !== null) resolve(failed(failOpenReason(err), err));
        else if (response === undefined) resolve(failed('error', new Error('empty CheckHTTP response')));
        else resolve({ kind: 'answer', response });
      });
    } catch (err) {
      // Serialization of a malformed request, or a closed channel.
      resolve(failed('error', err));
    }
  });
}
