// One way of reading an AdmissionReview (admission.k8s.io/v1) for every webhook the controller
// serves: bounded bodies, JSON, apiVersion and kind, `request.uid`. What cannot be used is a 400
// (413 past the size bound) with a Status body naming the problem; what can is handed on with
// its uid, which every answer echoes.

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';
/** Bodies past this are refused with 413 (the API server then applies the webhook's failurePolicy). */
export const MAX_ADMISSION_BYTES = 4 * 1024 * 1024;

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parts of `request` the webhooks read (everything else stays in `raw`). */
export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  operation: string;
  subResource: string;
  namespace: string;
  name: string;
  object: unknown;
  oldObject: unknown;
  dryRun: boolean;
  raw: Obj;
}

/** Why a body is not a usable review, and the HTTP status it gets. */
export interface ReviewProblem {
  reason: 'empty' | 'too_large' | 'malformed_json' | 'not_a_review' | 'no_request';
  message: string;
  status: 400 | 413;
}

export function tooLargeProblem(bytes: number): ReviewProblem {
  return { reason: 'too_large', message: `the review is more than ${Math.max(bytes, MAX_ADMISSION_BYTES)} bytes (limit ${MAX_ADMISSION_BYTES})`, status: 413 };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Reads one request body: the request, or why it is not a usable AdmissionReview. */
export function parseAdmissionReview(body: Buffer | string | undefined): { request: AdmissionRequest } | { problem: ReviewProblem } {
  const size = body === undefined ? 0 : Buffer.byteLength(body);
  if (size > MAX_ADMISSION_BYTES) return { problem: tooLargeProblem(size) };
  if (size === 0) return { problem: { reason: 'empty', message: 'the request has no body', status: 400 } };
  let review: unknown;
  try {
    review = JSON.parse(body === undefined ? '' : body.toString());
  } catch (err) {
    return { problem: { reason: 'malformed_json', message: `the body is not JSON: ${err instanceof Error ? err.message : String(err)}`, status: 400 } };
  }
  if (!isObj(review)) return { problem: { reason: 'not_a_review', message: 'the body is not a mapping', status: 400 } };
  if (review.apiVersion !== ADMISSION_API_VERSION || review.kind !== 'AdmissionReview') {
    return { problem: { reason: 'not_a_review', message: `expected apiVersion ${ADMISSION_API_VERSION}, kind AdmissionReview`, status: 400 } };
  }
  const req = review.request;
  if (!isObj(req) || typeof req.uid !== 'string' || req.uid === '') return { problem: { reason: 'no_request', message: 'request.uid is missing', status: 400 } };
  const kind = isObj(req.kind) ? req.kind : {};
  return {
    request: {
      uid: req.uid,
      kind: { group: str(kind.group), version: str(kind.version), kind: str(kind.kind) },
      operation: str(req.operation),
      subResource: str(req.subResource),
      namespace: str(req.namespace),
      name: str(req.name),
      object: req.object,
      oldObject: req.oldObject,
      dryRun: req.dryRun === true,
      raw: req,
    },
  };
}

/** The Status body of a review that cannot be used. */
export function problemBody(p: ReviewProblem): Obj {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: p.message, reason: 'BadRequest', code: p.status };
}

/** The AdmissionReview answer to `uid`. */
export function reviewAnswer(uid: string, response: Obj): Obj {
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response: { uid, ...response } };
}
