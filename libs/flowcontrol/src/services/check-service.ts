import type * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError, UnimplementedError } from '@sluice/errors';
import { unary } from '@sluice/server';
import { CallCancellation, type CancellableCall } from '../check/call-cancellation.js';
import { checkAnswer, type CheckAnswer } from '../wire/check-response-wire.js';
import type { CheckDecision } from '../check/decision.js';
import type { Engine } from '../check/engine.js';
import type { FlowEnds } from '../flow-ends/flow-ends.js';
import { peerIp } from './peer-address.js';
import type { CheckRequest__Output, FlowEndRequest__Output, FlowEndResponse } from '@sluice/proto';
import { millisOf } from '../wire/proto-time.js';
import { checkControlPoint, deadlineMsOf, MAX_CONTROL_POINT_LENGTH } from '../check/request-checks.js';

/** What the services need of service discovery (an EntityCache fits). */
export interface ServiceDiscovery {
  servicesByIp(ip: string): readonly string[];
}

/**
 * A signal aborted when the caller goes away (the call's 'cancelled' event: the client cancelled,
 * its deadline passed or its connection dropped), for the limiters that wait (a scheduler). The
 * handlers pass a CallCancellation instead, which makes the signal only when a limiter reads it.
 */
export function cancelSignalOf(call: CancellableCall): AbortSignal {
  return new CallCancellation(call).signal;
}

const NO_SERVICES: readonly string[] = Object.freeze([]);
const EMPTY_LABELS: Readonly<Record<string, string>> = Object.freeze({});

function cacheUnimplemented(rpc: string): grpc.handleUnaryCall<unknown, unknown> {
  return unary(() => {
    throw new UnimplementedError(`${rpc}: a Sluice agent keeps no result or global caches; call Check without cache keys`);
  });
}

const MAX_FLOW_ID_LENGTH = 128;

/**
 * FlowEnd: the end of a flow a CheckHTTP answer gave a flow_id to. An id
 * that is unknown, expired or of another control point is counted and
 * otherwise ignored (the answer is the same: a caller cannot probe ids).
 */
function flowEndHandler(flowEnds: FlowEnds | undefined): grpc.handleUnaryCall<FlowEndRequest__Output, FlowEndResponse> {
  return unary<FlowEndRequest__Output, FlowEndResponse>((req) => {
    const flowId = req.flow_id;
    if (typeof flowId !== 'string' || flowId === '') throw new InvalidArgumentError('flow_id is required', 'flow_id');
    if (flowId.length > MAX_FLOW_ID_LENGTH) throw new InvalidArgumentError(`flow_id must be at most ${MAX_FLOW_ID_LENGTH} characters`, 'flow_id');
    const cp = req.control_point ?? '';
    if (cp.length > MAX_CONTROL_POINT_LENGTH) throw new InvalidArgumentError(`control_point must be at most ${MAX_CONTROL_POINT_LENGTH} characters`, 'control_point');
    const durationMs = millisOf(req.duration);
    if (!Number.isFinite(durationMs) || durationMs < 0) throw new InvalidArgumentError('duration must not be negative', 'duration');
    flowEnds?.end({ controlPoint: cp, flowId, statusCode: req.status_code ?? 0, durationMs });
    return {};
  });
}

/**
 * aperture.flowcontrol.check.v1.FlowControlService: Check, FlowEnd, Cache* (unimplemented).
 * A Check answer sets expect_end when the caller asked for it or flux meters
 * measure the flow (an SDK reports its end in an OTLP span). `flowEnds`
 * receives FlowEnd calls; without it they are accepted and dropped.
 */
export function flowControlServiceImpl(engine: Engine, discovery: ServiceDiscovery | undefined, flowEnds?: FlowEnds): grpc.UntypedServiceImplementation {
  const check = unary<CheckRequest__Output, CheckAnswer>((req, call) => {
    const controlPoint = checkControlPoint(req.control_point);
    const services = discovery === undefined ? NO_SERVICES : discovery.servicesByIp(peerIp(call.getPeer()));
    const deadlineMs = deadlineMsOf(call.getDeadline());
    const askedEnd = req.expect_end === true;
    // One literal of one shape (deadlineMs may be undefined): no spread of a temporary per check.
    const d = engine.check({
      controlPoint,
      labels: req.labels ?? EMPTY_LABELS,
      services,
      type: 'feature',
      deadlineMs,
      rampMode: req.ramp_mode === true,
    }, new CallCancellation(call));
    if (d instanceof Promise) return d.then((x: CheckDecision) => checkAnswer(x, askedEnd || x.fluxMeters.length > 0));
    return checkAnswer(d, askedEnd || d.fluxMeters.length > 0);
  });
  return {
    Check: check,
    FlowEnd: flowEndHandler(flowEnds),
    CacheLookup: cacheUnimplemented('CacheLookup'),
    CacheUpsert: cacheUnimplemented('CacheUpsert'),
    CacheDelete: cacheUnimplemented('CacheDelete'),
  };
}
