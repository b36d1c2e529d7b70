import type * as grpc from '@grpc/grpc-js';
import { failOpenReason } from './fail-open.js';
import { failed, type CheckOutcome } from './unary-check.js';
import type { StreamAnswer } from './stream-answer.js';
import type { CheckHTTPRequest, CheckHTTPStreamRequest } from './types.js';

export type { CheckHTTPStreamRequest, CheckHTTPStreamResponse } from './types.js';

export type CheckHTTPStreamCall = grpc.ClientDuplexStream<CheckHTTPStreamRequest, StreamAnswer>;

/** A check waiting for its answer. Whoever takes it out of its stream settles it. */
export interface PendingCheck {
  readonly request: CheckHTTPRequest;
  /** Epoch milliseconds. */
  readonly deadline: number;
  /** The check's timeout, for the message of a check that ran out of it. */
  readonly timeoutMs: number;
  readonly resolve: (outcome: CheckOutcome) => void;
}

/** How a stream ended: its status, the checks it left unanswered, whether it answered any. */
export interface StreamEnd {
  status: grpc.StatusObject;
  unanswered: PendingCheck[];
  answered: boolean;
}

/**
 * One CheckHTTPStream call: checks go out with their ids, answers are
 * matched back by id (in whatever order they come). A check past its
 * deadline fails with reason 'deadline'; one timer serves every check (armed
 * for the earliest deadline), not one timer per check. When the call ends,
 * the checks still waiting are handed to `onEnd` unsettled, for the owner to
 * fail or to ask again another way.
 */
export class CheckStream {
  readonly #call: CheckHTTPStreamCall;
  readonly #pending = new Map<number, PendingCheck>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #answered = false;
  #ended = false;

  constructor(open: () => CheckHTTPStreamCall, onEnd: (end: StreamEnd) => void) {
    this.#call = open();
    this.#call.on('data', (m: StreamAnswer) => this.#answer(m));
    this.#call.on('error', () => undefined); // the status says it all
    this.#call.on('status', (status: grpc.StatusObject) => {
      if (this.#ended) return;
      this.#ended = true;
      this.#disarm();
      const unanswered = [...this.#pending.values()];
      this.#pending.clear();
      onEnd({ status, unanswered, answered: this.#answered });
    });
  }

  /** Sends a check under `id`; false when the stream has ended (the check was not taken). */
  send(id: number, check: PendingCheck): boolean {
    if (this.#ended) return false;
    this.#pending.set(id, check);
    if (check.deadline < this.#timerAt) this.#arm(check.deadline);
    this.#call.write({ id, request: check.request });
    return true;
  }

  /** Checks waiting for their answer. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Takes a check out: answers that come later are dropped. */
  take(id: number): PendingCheck | undefined {
    const check = this.#pending.get(id);
    if (check !== undefined) this.#pending.delete(id);
    return check;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, at - Date.now()));
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  /** Fails the checks past their deadline and arms the timer for the earliest one left. */
  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [id, check] of this.#pending) {
      if (check.deadline <= now) {
        this.#pending.delete(id);
        check.resolve(failed('deadline', new Error(`no answer from the agent within ${check.timeoutMs} ms`)));
      } else if (check.deadline < next) {
        next = check.deadline;
      }
    }
    if (next !== Infinity && !this.#ended) this.#arm(next);
  }

  /** Cancels the call; answers the waiting checks with `outcome`. */
  cancel(outcome: CheckOutcome): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#disarm();
    this.#call.cancel();
    for (const check of this.#pending.values()) check.resolve(outcome);
    this.#pending.clear();
  }

  #answer(m: StreamAnswer): void {
    const check = this.take(m.id);
    if (check === undefined) return; // given up on already
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
