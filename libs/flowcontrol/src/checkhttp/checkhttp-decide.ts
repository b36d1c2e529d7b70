import { GrpcCode, InvalidArgumentError } from '@sluice/errors';
import { baggageWith } from '../labels/baggage-header.js';
import type { CancelSource } from '../check/call-cancellation.js';
import { checkResponseWire, refusedCheckResponseWire, type CheckHTTPAnswer } from '../wire/check-response-wire.js';
import type { ServiceDiscovery } from '../services/check-service.js';
import type { CheckDecision } from '../check/decision.js';
import { deniedHttpResponse } from '../wire/denied-response.js';
import type { Engine } from '../check/engine.js';
import type { FlowEnds } from '../flow-ends/flow-ends.js';
import { httpFlowLabels } from '../labels/http-labels.js';
import { isNormalTarget, normalizeRequestTarget, type RequestTargetOptions } from '../labels/http-path.js';
import { checkControlPoint } from '../check/request-checks.js';
import type { CheckHTTPRequest__Output, HeaderValue, HttpRequest__Output } from '@sluice/proto';
import type { HeaderInterest } from '../labels/header-interest.js';

const NO_SERVICES: readonly string[] = Object.freeze([]);
const NO_HEADERS: HeaderValue[] = [];

/** What deciding a CheckHTTP request needs: the engine and, when there is one, service discovery. */
export interface CheckHttpDeps {
  readonly engine: Engine;
  readonly discovery: ServiceDiscovery | undefined;
  /** Where flows measured by flux meters begin (a flow_id is answered) and end; absent: flows are not measured. */
  readonly flowEnds?: FlowEnds;
}

function baggageOf(headers: Readonly<Record<string, string>>): string | undefined {
  if (typeof headers.baggage === 'string') return headers.baggage;
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'baggage') return headers[name];
  return undefined;
}

/**
 * The headers an accepted flow goes on with: `baggage`, the one it came with plus the labels the
 * classifiers added (those of rules with `telemetry: false` left out), when there are such labels;
 * else none (a shared empty list).
 */
export function okResponseHeaders(d: CheckDecision, req: CheckHTTPRequest__Output): HeaderValue[] {
  if (d.addedLabels === undefined) return NO_HEADERS;
  const baggage = baggageWith(baggageOf(req.request?.headers ?? {}), d.addedLabels, d.hiddenLabels);
  return baggage === undefined ? NO_HEADERS : [{ key: 'baggage', value: baggage }];
}

/**
 * The CheckHTTP answer of a decision. With a `flowId` (flux meters measure
 * the flow), the answer carries it and check_response.expect_end: the caller
 * reports the flow's end with FlowEnd.
 */
export function toCheckHTTPResponse(d: CheckDecision, req: CheckHTTPRequest__Output, flowId?: string): CheckHTTPAnswer {
  const check_response = checkResponseWire(d, flowId !== undefined);
  if (!d.accepted) return { denied_response: deniedHttpResponse(d), check_response };
  const headers = okResponseHeaders(d, req);
  return flowId === undefined ? { ok_response: { headers }, check_response } : { ok_response: { headers }, check_response, flow_id: flowId };
}

/** The generation a caller filtered by: undefined when it does not know of header interests (the field absent). */
function interestGenerationOf(req: CheckHTTPRequest__Output): number | undefined {
  const g = req.interest_generation;
  if (g === undefined || g === null) return undefined;
  const n = Number(g);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('interest_generation must be a whole number', 'interest_generation');
  return n;
}

/**
 * Request targets as the agent labels them: RFC 3986 normalization, no slash merging (`//a` and `/a`
 * are different paths to RFC 3986; a proxy that merges slashes, as the tap does by default, asks
 * about the merged path it forwards).
 */
const AGENT_TARGETS: RequestTargetOptions = { mergeSlashes: false };

/** A copy of a CheckHTTP request whose target `path` is not in normal form, with it in normal form, or the refusal of its target. */
function withNormalTarget(req: CheckHTTPRequest__Output, http: HttpRequest__Output, path: string, controlPoint: string): { req: CheckHTTPRequest__Output } | { refused: CheckHTTPAnswer } {
  const t = normalizeRequestTarget(path, AGENT_TARGETS);
  if (!t.ok) {
    const body = JSON.stringify({ code: GrpcCode.INVALID_ARGUMENT, message: `request target refused at control point ${controlPoint}: ${t.reason}`, details: [], reason: 'BAD_REQUEST_TARGET' });
    return {
      refused: {
        denied_response: { status: 400, headers: [{ key: 'content-type', value: 'application/json' }], body },
        check_response: refusedCheckResponseWire(controlPoint, performance.timeOrigin + performance.now()),
      },
    };
  }
  return { req: { ...req, request: { ...http, path: t.target, host: t.host ?? http.host } } };
}

function withInterest(r: CheckHTTPAnswer, interest: HeaderInterest | undefined): CheckHTTPAnswer {
  if (interest !== undefined) r.header_interest = interest;
  return r;
}

/** The CheckHTTP answer in wire shape of a decided flow (decideCheckHttp's shaping). */
function wireAnswer(d: CheckDecision, req: CheckHTTPRequest__Output, flowId: string | undefined, interest: HeaderInterest | undefined): CheckHTTPAnswer {
  return withInterest(toCheckHTTPResponse(d, req, flowId), interest);
}

function sameAnswer(a: CheckHTTPAnswer): CheckHTTPAnswer {
  return a;
}

/**
 * How a caller of decideCheckHttpAs wants its answer: `decided` shapes a flow the engine decided
 * (its decision, the request as decided (its target in normal form), the flow id when flux meters
 * measure it, the header interest to learn when the caller's generation is not the current one);
 * `early` shapes an answer given without deciding (a refused target, resend_unfiltered), in wire shape.
 */
export interface CheckHttpShape<A> {
  decided(d: CheckDecision, req: CheckHTTPRequest__Output, flowId: string | undefined, interest: HeaderInterest | undefined): A;
  early(answer: CheckHTTPAnswer): A;
}

const WIRE_SHAPE: CheckHttpShape<CheckHTTPAnswer> = { decided: wireAnswer, early: sameAnswer };

/**
 * The decision on one CheckHTTP request, as both the unary CheckHTTP and
 * CheckHTTPStream answer it: labels from the HTTP attributes, services from
 * the destination address, then the engine (which records the control point
 * and feeds the preview). Throws InvalidArgumentError for a request without
 * a control point or HTTP attributes; synchronous unless a limiter answers
 * with a promise.
 *
 * A caller that sets interest_generation learns the control point's header
 * interest whenever its generation is not the current one. A request
 * filtered by a generation (not 0) that is no longer current is not
 * decided (it may lack a header that matters now): the answer says
 * resend_unfiltered, with the current interest. So no flow is ever decided
 * on headers filtered out by a stale interest.
 */
export function decideCheckHttp(deps: CheckHttpDeps, req: CheckHTTPRequest__Output, deadlineMs?: number, cancel?: AbortSignal | CancelSource): CheckHTTPAnswer | Promise<CheckHTTPAnswer> {
  return decideCheckHttpAs(deps, req, WIRE_SHAPE, deadlineMs, cancel);
}

/**
 * decideCheckHttp with the answer shaped by `shape` (the in-process tap reads the decision
 * itself, without the wire shape's timestamps, label keys and encoded limiter decisions):
 * the same refusals, interest, services, engine check and flow begin.
 */
export function decideCheckHttpAs<A>(deps: CheckHttpDeps, req: CheckHTTPRequest__Output, shape: CheckHttpShape<A>, deadlineMs?: number, cancel?: AbortSignal | CancelSource): A | Promise<A> {
  const controlPoint = checkControlPoint(req.control_point);
  if (req.request === null || req.request === undefined) throw new InvalidArgumentError('request is required', 'request');
  const path = req.request.path;
  if (typeof path === 'string' && path !== '' && !isNormalTarget(path, AGENT_TARGETS.mergeSlashes)) {
    const normal = withNormalTarget(req, req.request, path, controlPoint);
    if ('refused' in normal) return shape.early(normal.refused);
    req = normal.req;
  }
  const generation = interestGenerationOf(req);
  let interest: HeaderInterest | undefined;
  if (generation !== undefined) {
    const current = deps.engine.headerInterest(controlPoint);
    if (generation !== current.generation) {
      if (generation !== 0) return shape.early({ header_interest: current, resend_unfiltered: true });
      interest = current;
    }
  }
  const dest = req.destination?.address;
  const discovery = deps.discovery;
  const services = discovery === undefined || dest === undefined || dest === '' ? NO_SERVICES : discovery.servicesByIp(dest);
  const d = deps.engine.check({
    controlPoint,
    labels: httpFlowLabels(req.request),
    services,
    type: 'http',
    http: req,
    deadlineMs,
    rampMode: req.ramp_mode === true,
  }, cancel);
  const flowEnds = deps.flowEnds;
  const decided = req;
  if (d instanceof Promise) return d.then((x) => shape.decided(x, decided, flowEnds?.begin(x), interest));
  return shape.decided(d, decided, flowEnds?.begin(d), interest);
}
