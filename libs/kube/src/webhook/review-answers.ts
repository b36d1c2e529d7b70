import { Counter, type Registry } from 'prom-client';
import { problemBody, tooLargeProblem, type ReviewProblem } from './admission-review.js';
import type { Logger } from '@sluice/telemetry/logger';

/** One answer of a webhook: the HTTP status and JSON body, and the result and reason it was counted under. */
export interface CountedAnswer<R extends string> {
  status: number;
  body: unknown;
  result: R;
  reason: string;
}

export interface ReviewAnswersOptions {
  /** The counter's name, labelled by result and reason. */
  name: string;
  help: string;
  registry?: Registry;
  logger: Logger;
  /** Logged (a warning) for a body that is not a usable AdmissionReview. */
  invalidMessage: string;
}

/**
 * The answers of an admission webhook, every one counted by result and reason, with the answer to a
 * body that is not a usable AdmissionReview (result `invalid`) that both webhooks give alike.
 */
export class ReviewAnswers<R extends string> {
  private readonly reviews: Counter<'result' | 'reason'>;

  constructor(private readonly o: ReviewAnswersOptions) {
    this.reviews = new Counter({ name: o.name, help: o.help, labelNames: ['result', 'reason'], registers: o.registry ? [o.registry] : [] });
  }

  answer(status: number, body: unknown, result: R, reason: string): CountedAnswer<R> {
    this.reviews.inc({ result, reason });
    return { status, body, result, reason };
  }

  invalid(p: ReviewProblem): CountedAnswer<R | 'invalid'> {
    this.o.logger.warn(this.o.invalidMessage, { reason: p.reason, message: p.message });
    this.reviews.inc({ result: 'invalid', reason: p.reason });
    return { status: p.status, body: problemBody(p), result: 'invalid', reason: p.reason };
  }

  /** The answer to a body the route stopped reading at `bytes` (more than MAX_ADMISSION_BYTES). */
  tooLarge(bytes: number): CountedAnswer<R | 'invalid'> {
    return this.invalid(tooLargeProblem(bytes));
  }

  /** Counts of answers so far, by `result/reason`. */
  async counts(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const v of (await this.reviews.get()).values) out.set(`${String(v.labels.result)}/${String(v.labels.reason)}`, v.value);
    return out;
  }
}
