/** What a limiter that waits needs of a caller going away: a signal, asked for only when it waits. */
export interface CancelSource {
  readonly signal: AbortSignal;
}

/** A gRPC call's side of it: grpc-js emits 'cancelled' when the call ends without a status sent. */
export interface CancellableCall {
  readonly cancelled: boolean;
  once(event: 'cancelled', listener: () => void): unknown;
}

/**
 * The cancellation of one gRPC call as a CancelSource. The AbortController and the call's
 * 'cancelled' listener are made on the first read of `signal`, which only a limiter that waits
 * (a scheduler) does: a check decided synchronously allocates neither (grpc-js emits 'cancelled'
 * at the close of every call, so an eager controller was also aborted, with a DOMException and
 * its stack, after every answer).
 */
export class CallCancellation implements CancelSource {
  private controller: AbortController | undefined;

  constructor(private readonly call: CancellableCall) {}

  get signal(): AbortSignal {
    let c = this.controller;
    if (c === undefined) {
      const made = new AbortController();
      c = made;
      this.controller = made;
      if (this.call.cancelled) made.abort();
      else this.call.once('cancelled', () => made.abort());
    }
    return c.signal;
  }
}
