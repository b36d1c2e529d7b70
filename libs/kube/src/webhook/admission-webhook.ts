// The mutating admission webhook's decisions: an AdmissionReview (admission.k8s.io/v1) in, the
// AdmissionReview answer out. Anything it cannot use is admitted unchanged and counted: the
// webhook is registered with failurePolicy Ignore and must never stop a cluster's deployments.
import type { Registry } from 'prom-client';
import { silentLogger } from '../api-state.js';
import { isObj, parseAdmissionReview, reviewAnswer } from './admission-review.js';
import type { AdmissionHandler } from './admission-route.js';
import type { InjectOptions } from './inject-options.js';
import { planInjection } from './pod-injection.js';
import { ReviewAnswers } from './review-answers.js';
import type { Logger } from '@sluice/telemetry/logger';

export { ADMISSION_API_VERSION, MAX_ADMISSION_BYTES } from './admission-review.js';

export type AdmissionResult = 'injected' | 'skipped' | 'refused' | 'invalid';

/** What the HTTP route answers: a status and a JSON body. */
export interface AdmissionAnswer {
  status: number;
  body: unknown;
  result: AdmissionResult;
  reason: string;
}

export interface AdmissionWebhookOptions {
  inject: InjectOptions;
  registry?: Registry;
  logger?: Logger;
}

type Obj = Record<string, unknown>;

/** Serves `/v1/admission/inject` (pods annotated `sluice.dev/inject: "true"`) and `/v1/admission/inject/namespace` (pods of labelled namespaces). */
export class AdmissionWebhook {
  private readonly answers: ReviewAnswers<AdmissionResult>;
  private readonly logger: Logger;

  constructor(private readonly opts: AdmissionWebhookOptions) {
    this.logger = opts.logger ?? silentLogger;
    this.answers = new ReviewAnswers({
      name: 'admission_reviews_total',
      help: 'AdmissionReviews the sidecar injection webhook answered, by result (injected, skipped, refused: admitted unchanged, invalid: not a usable review) and reason.',
      ...(opts.registry ? { registry: opts.registry } : {}),
      logger: this.logger,
      invalidMessage: 'admission review not usable; the API server admits the pod unchanged',
    });
  }

  /** Counts of answers so far, by `result/reason`. */
  counts(): Promise<Map<string, number>> {
    return this.answers.counts();
  }

  /** Answers a body the route stopped reading at `bytes` (more than MAX_ADMISSION_BYTES). */
  tooLarge(bytes: number): AdmissionAnswer {
    return this.answers.tooLarge(bytes);
  }

  /** The route's view of one of the two paths (`namespaceEnabled`: the labelled-namespace webhook). */
  handler(namespaceEnabled: boolean): AdmissionHandler {
    return { review: (body) => this.review(body, namespaceEnabled), tooLarge: (bytes) => this.tooLarge(bytes) };
  }

  /** Answers one request body. `namespaceEnabled`: it came through the labelled-namespace webhook. */
  review(body: Buffer | string | undefined, namespaceEnabled: boolean): AdmissionAnswer {
    const parsed = parseAdmissionReview(body);
    if ('problem' in parsed) return this.answers.invalid(parsed.problem);
    const req = parsed.request.raw;
    const uid = parsed.request.uid;
    const respond = (result: AdmissionResult, reason: string, extra: Obj = {}): AdmissionAnswer =>
      this.answers.answer(200, reviewAnswer(uid, { allowed: true, ...extra }), result, reason);

    const kind = isObj(req.kind) ? req.kind : {};
    if (kind.group !== '' || kind.version !== 'v1' || kind.kind !== 'Pod' || (req.subResource !== undefined && req.subResource !== '')) {
      return respond('skipped', 'not_a_pod');
    }
    if (req.operation !== 'CREATE') return respond('skipped', 'not_create');
    const plan = planInjection(req.object, { namespaceEnabled }, this.opts.inject);
    if (plan.action === 'skip') return respond('skipped', plan.reason);
    if (plan.action === 'refuse') {
      const where = `${typeof req.namespace === 'string' ? req.namespace : ''}/${typeof req.name === 'string' ? req.name : ''}`;
      this.logger.warn('pod admitted without injection', { pod: where, reason: plan.reason, message: plan.message });
      return respond('refused', plan.reason, { warnings: [`sluice: not injected: ${plan.message}`.slice(0, 512)] });
    }
    return respond('injected', 'injected', { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(plan.patch)).toString('base64') });
  }
}
