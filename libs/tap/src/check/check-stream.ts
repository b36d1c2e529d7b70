import type * as grpc from '@grpc/grpc-js';
import { failOpenReason } from './fail-open.js';
import { failed, type CheckOutcome } from './unary-check.js';
import type { CheckHTTPStreamResponse__Output } from '@sluice/proto';
import type { CheckHTTPRequest, CheckHTTPStreamRequest } from './types.js';

export type { CheckHTTPStreamRequest, CheckHTTPStreamResponse } from './types.js';

export type CheckHTTPStreamCall = grpc.ClientDuplexStream<CheckHTTPStreamRequest, CheckHTTPStreamResponse__Output>;

/** A check waiting for its answer. Whoever takes it out of its stream settles it. */
export interface PendingCheck {
  readonly request: CheckHTTPRequest;
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly resolve: (outcome: CheckOutcome) => void;
  timer: NodeJS.Timeout | undefined;
}

/** How a stream ended: its status, the checks it left unanswered, whether it answered any. */
export interface StreamEnd {
  status: grpc.StatusObject;
  unanswered: PendingCheck[];
  answered: boolean;
}

/**
 * One CheckHTTPStream call: checks go out with their ids, answers are
 * matched back by id (in whatever order they come). When the call ends,
 * the checks still waiting are handed to `onEnd` unsettled (their timers
 * still running), for the owner to fail or to ask again another way.
 */
export class CheckStream {
  readonly #call: CheckHTTPStreamCall;
  readonly #pending = new Map<number, PendingCheck>();
  #answered = false;
  #ended = false;

  constructor(open: () => CheckHTTPStreamCall, onEnd: (end: StreamEnd) => void) {
    this.#call = open();
    this.#call.on('data', (m: CheckHTTPStreamResponse__Output) => this.#answer(m));
    this.#call.on('error', () => undefined); // the status says it all
    this.#call.on('status', (status: grpc.StatusObject) => {
      if (this.#ended) return;
      this.#ended = true;
      const unanswered = [...this.#pending.values()];
      this.#pending.clear();
      onEnd({ status, unanswered, answered: this.#answered });
    });
  }

  /** Sends a check under `id`; false when the stream has ended (the check was not taken). */
  send(id: number, check: PendingCheck): boolean {
    if (this.#ended) return false;
    this.#pending.set(id, check);
    this.#call.write({ id, request: check.request });
    return true;
  }

  /** Takes a check out (its deadline passed): answers that come later are dropped. */
  take(id: number): PendingCheck | undefined {
    const check = this.#pending.get(id);
    if (check !== undefined) this.#pending.delete(id);
    return check;
  }

  /** Cancels the call; answers the waiting checks with `outcome`. */
  cancel(outcome: CheckOutcome): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#call.cancel();
    for (const check of this.#pending.values()) {
      clearTimeout(check.timer);
      check.resolve(outcome);
    }
    this.#pending.clear();
  }

  #answer(m: CheckHTTPStreamResponse__Output): void {
    const check = this.take(m.id);
    if (check === undefined) return; // given up on already
    clearTimeout(check.timer);
    this.#answered = true;
    if (m.code !== 0) {
      check.resolve(failed(failOpenReason({ code: m.code }), new Error(`agent answered ${m.code}: ${m.message}`)));
    } else if (m.response === null || m.response === undefined) {
      check.resolve(failed('error', new Error('empty CheckHTTPStream answer')));
    } else {
      check.resolve({ kind: 'answer', response: m.response });
    }
  }
}
