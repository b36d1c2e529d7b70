// The mutating admission webhook's decisions: an AdmissionReview (admission.k8s.io/v1) in, the
// AdmissionReview answer out. Anything it cannot use is admitted unchanged and counted: the
// webhook is registered with failurePolicy Ignore and must never stop a cluster's deployments.
import { Counter, type Registry } from 'prom-client';
import type { KubeLogger } from '../api-state.js';
import { silentLogger } from '../api-state.js';
import type { InjectOptions } from './inject-options.js';
import { planInjection } from './pod-injection.js';

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';
/** Bodies past this are refused with 413 (the API server then applies failurePolicy Ignore). */
export const MAX_ADMISSION_BYTES = 4 * 1024 * 1024;

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
  logger?: KubeLogger;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Serves `/v1/admission/inject` (pods annotated `sluice.dev/inject: "true"`) and `/v1/admission/inject/namespace` (pods of labelled namespaces). */
export class AdmissionWebhook {
  private readonly reviews: Counter<'result' | 'reason'>;
  private readonly logger: KubeLogger;

  constructor(private readonly opts: AdmissionWebhookOptions) {
    this.logger = opts.logger ?? silentLogger;
    this.reviews = new Counter({
      name: 'admission_reviews_total',
      help: 'AdmissionReviews the sidecar injection webhook answered, by result (injected, skipped, refused: admitted unchanged, invalid: not a usable review) and reason.',
      labelNames: ['result', 'reason'],
      registers: opts.registry ? [opts.registry] : [],
    });
  }

  /** Counts of answers so far, by `result/reason`. */
  async counts(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const v of (await this.reviews.get()).values) out.set(`${String(v.labels.result)}/${String(v.labels.reason)}`, v.value);
    return out;
  }

  private answer(status: number, body: unknown, result: AdmissionResult, reason: string): AdmissionAnswer {
    this.reviews.inc({ result, reason });
    return { status, body, result, reason };
  }

  private invalid(reason: string, message: string, status = 400): AdmissionAnswer {
    this.logger.warn('admission review not usable; the API server admits the pod unchanged', { reason, message });
    return this.answer(status, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'BadRequest', code: status }, 'invalid', reason);
  }

  /** Answers a body the route stopped reading at `bytes` (more than MAX_ADMISSION_BYTES). */
  tooLarge(bytes: number): AdmissionAnswer {
    return this.invalid('too_large', `the review is more than ${Math.max(bytes, MAX_ADMISSION_BYTES)} bytes (limit ${MAX_ADMISSION_BYTES})`, 413);
  }

  /** Answers one request body. `namespaceEnabled`: it came through the labelled-namespace webhook. */
  review(body: Buffer | string | undefined, namespaceEnabled: boolean): AdmissionAnswer {
    const size = body === undefined ? 0 : Buffer.byteLength(body);
    if (size > MAX_ADMISSION_BYTES) return this.tooLarge(size);
    if (size === 0) return this.invalid('empty', 'the request has no body');
    let review: unknown;
    try {
      review = JSON.parse(body === undefined ? '' : body.toString());
    } catch (err) {
      return this.invalid('malformed_json', `the body is not JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!isObj(review)) return this.invalid('not_a_review', 'the body is not a mapping');
    if (review.apiVersion !== ADMISSION_API_VERSION || review.kind !== 'AdmissionReview') {
      return this.invalid('not_a_review', `expected apiVersion ${ADMISSION_API_VERSION}, kind AdmissionReview`);
    }
    const req = review.request;
    if (!isObj(req) || typeof req.uid !== 'string' || req.uid === '') return this.invalid('no_request', 'request.uid is missing');
    const uid = req.uid;
    const respond = (result: AdmissionResult, reason: string, extra: Obj = {}): AdmissionAnswer =>
      this.answer(200, { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response: { uid, allowed: true, ...extra } }, result, reason);

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
