import { failOpenReason } from './fail-open.js';
import { GrpcCode, type CallHandlers, type CallStatus, type GrpcCall } from './grpc-call.js';
import { streamRequestFrame } from './request-encoding.js';
import { decodeStreamAnswer, type StreamAnswer } from './stream-answer.js';
import { failed, type CheckOutcome } from './unary-check.js';
import type { CheckHTTPRequest } from './types.js';

export type { CheckHTTPStreamRequest, CheckHTTPStreamResponse } from './types.js';

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
  status: CallStatus;
  unanswered: PendingCheck[];
  answered: boolean;
}

/** Opens a CheckHTTPStream call; undefined when there is no connection to open it on. */
export type OpenStream = (handlers: CallHandlers) => GrpcCall | undefined;

/** Bytes of checks waiting for HTTP/2 flow control past which new checks are not queued (they fail open). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * One CheckHTTPStream call: checks go out with their ids, answers are
 * matched back by id (in whatever order they come). A check past its
 * deadline fails with reason 'deadline'; one timer serves every check (armed
 * for the earliest deadline), not one timer per check. When the call ends,
 * the checks still waiting are handed to `onEnd` unsettled, for the owner to
 * fail or to ask again another way. When the agent does not take the checks
 * as fast as they come (flow control), a check finding more than
 * MAX_BUFFERED_BYTES queued is not sent: it fails at once as unavailable.
 */
export class CheckStream {
  readonly #call: GrpcCall;
  readonly #pending = new Map<number, PendingCheck>();
  readonly #onEnd: (end: StreamEnd) => void;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #answered = false;
  #ended = false;

  /** Throws when there is no connection to open the call on. */
  constructor(open: OpenStream, onEnd: (end: StreamEnd) => void) {
    this.#onEnd = onEnd;
    const call = open({ message: (body) => this.#message(body), status: (status) => this.#status(status) });
    if (call === undefined) throw new Error('no connection to the agent');
    this.#call = call;
  }

  /** Sends a check under `id`; false when the stream has ended or is backed up (the check was not taken). */
  send(id: number, check: PendingCheck): boolean {
    if (this.#ended || this.#call.buffered > MAX_BUFFERED_BYTES) return false;
    this.#pending.set(id, check);
    if (check.deadline < this.#timerAt) this.#arm(check.deadline);
    this.#call.write(streamRequestFrame(id, check.request));
    return true;
  }

  /** Whether the call runs on `session`. */
  isOn(session: unknown): boolean {
    return this.#call.session === session;
  }

  /** Sends no more checks: half-closes the call, the checks under way are still answered. */
  retire(): void {
    if (!this.#ended) this.#call.end();
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

  #status(status: CallStatus): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#disarm();
    const unanswered = [...this.#pending.values()];
    this.#pending.clear();
    this.#onEnd({ status, unanswered, answered: this.#answered });
  }

  #message(body: Buffer): void {
    let m: StreamAnswer;
    try {
      m = decodeStreamAnswer(body);
    } catch (err) {
      // Bytes that are not a CheckHTTPStreamResponse: the stream is no use (as grpc-js ends such a call, INTERNAL).
      this.#status({ code: GrpcCode.INTERNAL, details: `an answer that does not decode: ${err instanceof Error ? err.message : String(err)}` });
      this.#call.cancel();
      return;
    }
    const check = this.take(m.id);
    if (check === undefined) return; // given up on already
    this.#answered = true;
    if (m.code !== GrpcCode.OK) {
      check.resolve(failed(failOpenReason({ code: m.code }), new Error(`agent answered ${m.code}: ${m.message}`)));
    } else if (m.response === null || m.response === undefined) {
      check.resolve(failed('error', new Error('empty CheckHTTPStream answer')));
    } else {
      check.resolve({ kind: 'answer', response: m.response });
    }
  }
}
