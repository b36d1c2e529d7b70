import { decideCheckHttpAs, type CancelSource, type CheckHttpDeps } from '@sluice/flowcontrol';
import type { Checker } from '../check/ask-agent.js';
import { failed, type CheckOutcome } from '../check/unary-check.js';
import type { CheckAnswer } from '../check/stream-answer.js';
import type { CheckHTTPRequest } from '../check/types.js';
import { TAP_SHAPE } from './engine-answer.js';

/**
 * The cancellation of one in-process check: the AbortController is made on the first read of
 * `signal`, which only a limiter that waits (a scheduler) does; a check decided at once makes none.
 * Aborted when the check's timeout passes.
 */
class CheckCancellation implements CancelSource {
  #controller: AbortController | undefined;
  #aborted = false;

  get signal(): AbortSignal {
    let c = this.#controller;
    if (c === undefined) {
      c = new AbortController();
      this.#controller = c;
      if (this.#aborted) c.abort();
    }
    return c.signal;
  }

  abort(): void {
    this.#aborted = true;
    this.#controller?.abort();
  }
}

/**
 * A Checker deciding in this process, through the agent's engine, by the same path as the
 * agent's CheckHTTP service (decideCheckHttpAs: labels, services from the destination
 * address, header interest, flow ids for flux meters, the preview), its answer read as the
 * tap reads a decoded one (engine-answer.ts). A decision the engine makes at once is answered
 * at once (no promise); one that waits (a limiter answering later) is a promise bounded by the
 * timeout. It never throws: a request the decision refuses (InvalidArgument) or an engine failure
 * is a failed check ('error'), a decision past the timeout a failed check ('deadline', the wait
 * given up), as they are for the gRPC client, and the tap's fail-open rules apply to them alike.
 */
export class EngineChecker implements Checker {
  readonly #deps: CheckHttpDeps;

  constructor(deps: CheckHttpDeps) {
    this.#deps = deps;
  }

  check(request: CheckHTTPRequest, timeoutMs: number): CheckOutcome | Promise<CheckOutcome> {
    let decided: CheckAnswer | Promise<CheckAnswer>;
    const cancel = new CheckCancellation();
    try {
      decided = decideCheckHttpAs(this.#deps, request, TAP_SHAPE, Date.now() + timeoutMs, cancel);
    } catch (err) {
      return failed('error', err);
    }
    if (!(decided instanceof Promise)) return { kind: 'answer', response: decided };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        cancel.abort();
        resolve(failed('deadline', new Error('deadline exceeded')));
      }, timeoutMs);
      decided.then(
        (response) => { clearTimeout(timer); resolve({ kind: 'answer', response }); },
        (err: unknown) => { clearTimeout(timer); resolve(failed('error', err)); },
      );
    });
  }
}
