// The validating admission webhook for Policy resources (policies.sluice.dev/v1alpha1, create and
// update): the spec goes through the controller's own policy compiler, and a policy the CRD schema
// accepts but the compiler refuses (a signal no component produces, a cycle, a bad label matcher)
// is denied with the JSON path of every problem in `status.message`. Parts the controller accepts
// and ignores come back as `warnings`. Bodies that are not a usable AdmissionReview are a 400
// (413 past the size bound); every answer to a usable one echoes its `uid`.
import type { Registry } from 'prom-client';
import { silentLogger } from '../api-state.js';
import { isObj, parseAdmissionReview, reviewAnswer, type AdmissionRequest } from './admission-review.js';
import { ReviewAnswers } from './review-answers.js';
import type { AdmissionHandler, AdmissionHttpAnswer } from './admission-route.js';
import type { Logger } from '@sluice/telemetry/logger';

/** What the compiler says of a spec: it compiles (with the JSON paths it ignores), or its problems. */
export type PolicyVerdict = { ok: true; ignored: string[] } | { ok: false; problems: { path: string; message: string }[] };

export interface PolicyValidationOptions {
  /** The controller's compiler (with its PromQL label checks); should not throw, a throw is a denial at `spec`. */
  check(name: string, spec: unknown, dynamicConfig?: unknown): PolicyVerdict;
  registry?: Registry;
  logger?: Logger;
}

export type PolicyReviewResult = 'allowed' | 'denied' | 'skipped' | 'invalid';

export interface PolicyReviewAnswer extends AdmissionHttpAnswer {
  result: PolicyReviewResult;
  reason: string;
}

export const POLICY_VALIDATION_GROUP = 'sluice.dev';
export const POLICY_VALIDATION_KIND = 'Policy';
/** Problems listed in one denial; the count of the rest is said. */
const MAX_LISTED = 20;
/** Warnings in one answer, and characters in each (the API server may cut longer ones). */
const MAX_WARNINGS = 20;
const MAX_WARNING_CHARS = 256;

const DEFAULT_NAME = 'policy';

export class PolicyValidationWebhook implements AdmissionHandler {
  private readonly answers: ReviewAnswers<PolicyReviewResult>;
  private readonly logger: Logger;

  constructor(private readonly opts: PolicyValidationOptions) {
    this.logger = opts.logger ?? silentLogger;
    this.answers = new ReviewAnswers({
      name: 'policy_admission_reviews_total',
      help: 'AdmissionReviews the Policy validating webhook answered, by result (allowed, denied, skipped: not a Policy create or update, invalid: not a usable review) and reason.',
      ...(opts.registry ? { registry: opts.registry } : {}),
      logger: this.logger,
      invalidMessage: 'policy admission review not usable',
    });
  }

  /** Counts of answers so far, by `result/reason`. */
  counts(): Promise<Map<string, number>> {
    return this.answers.counts();
  }

  tooLarge(bytes: number): PolicyReviewAnswer {
    return this.answers.tooLarge(bytes);
  }

  review(body: Buffer | string | undefined): PolicyReviewAnswer {
    const parsed = parseAdmissionReview(body);
    if ('problem' in parsed) return this.answers.invalid(parsed.problem);
    const req = parsed.request;
    const allow = (result: 'allowed' | 'skipped', reason: string, warnings: string[] = []): PolicyReviewAnswer =>
      this.answers.answer(200, reviewAnswer(req.uid, { allowed: true, ...(warnings.length > 0 ? { warnings } : {}) }), result, reason);
    if (req.kind.group !== POLICY_VALIDATION_GROUP || req.kind.kind !== POLICY_VALIDATION_KIND || req.subResource !== '') return allow('skipped', 'not_a_policy');
    if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return allow('skipped', 'not_create_or_update');
    if (!isObj(req.object)) return this.deny(req, 'no_object', `request.object: a ${req.operation} review of a Policy must carry the Policy`);
    const meta = isObj(req.object.metadata) ? req.object.metadata : {};
    const name = typeof meta.name === 'string' && meta.name !== '' ? meta.name : req.name !== '' ? req.name : DEFAULT_NAME;
    let verdict: PolicyVerdict;
    try {
      verdict = this.opts.check(name, req.object.spec ?? null, req.object.dynamicConfig ?? undefined);
    } catch (err) {
      verdict = { ok: false, problems: [{ path: 'spec', message: `the policy could not be checked: ${err instanceof Error ? err.message : String(err)}` }] };
    }
    if (!verdict.ok) {
      const listed = verdict.problems.slice(0, MAX_LISTED).map((p) => `${p.path}: ${p.message}`);
      if (verdict.problems.length > MAX_LISTED) listed.push(`… and ${verdict.problems.length - MAX_LISTED} more`);
      return this.deny(req, 'compile', `policy ${JSON.stringify(name)} is invalid: ${listed.join('; ')}`);
    }
    const warnings = verdict.ignored.slice(0, MAX_WARNINGS).map((path) => `${path}: accepted and ignored by the controller`.slice(0, MAX_WARNING_CHARS));
    return allow('allowed', warnings.length > 0 ? 'ignored_parts' : 'compiles', warnings);
  }

  private deny(req: AdmissionRequest, reason: string, message: string): PolicyReviewAnswer {
    this.logger.info('policy denied at admission', { policy: `${req.namespace}/${req.name}`, operation: req.operation, message });
    const status = { status: 'Failure', code: 422, reason: 'Invalid', message };
    return this.answers.answer(200, reviewAnswer(req.uid, { allowed: false, status }), 'denied', reason);
  }
}
