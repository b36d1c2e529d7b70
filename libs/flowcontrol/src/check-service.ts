import type * as grpc from '@grpc/grpc-js';
import { UnimplementedError } from '@sluice/errors';
import { unary } from '@sluice/server';
import { toCheckResponse } from './check-response.js';
import type { CheckDecision } from './decision.js';
import type { Engine } from './engine.js';
import { peerIp } from './peer-address.js';
import type { CheckRequest__Output, CheckResponse, FlowEndRequest__Output, FlowEndResponse } from '@sluice/proto';
import { checkControlPoint, deadlineMsOf } from './request-checks.js';

/** What the services need of service discovery (an EntityCache fits). */
export interface ServiceDiscovery {
  servicesByIp(ip: string): readonly string[];
}

const NO_SERVICES: readonly string[] = Object.freeze([]);
const EMPTY_LABELS: Readonly<Record<string, string>> = Object.freeze({});

function cacheUnimplemented(rpc: string): grpc.handleUnaryCall<unknown, unknown> {
  return unary(() => {
    throw new UnimplementedError(`${rpc}: a Sluice agent keeps no result or global caches; call Check without cache keys`);
  });
}

/** aperture.flowcontrol.check.v1.FlowControlService: Check, FlowEnd, Cache* (unimplemented). */
export function flowControlServiceImpl(engine: Engine, discovery: ServiceDiscovery | undefined): grpc.UntypedServiceImplementation {
  const check = unary<CheckRequest__Output, CheckResponse>((req, call) => {
    const controlPoint = checkControlPoint(req.control_point);
    const services = discovery === undefined ? NO_SERVICES : discovery.servicesByIp(peerIp(call.getPeer()));
    const deadlineMs = deadlineMsOf(call.getDeadline());
    const expectEnd = req.expect_end === true;
    const d = engine.check({
      controlPoint,
      labels: req.labels ?? EMPTY_LABELS,
      services,
      type: 'feature',
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      rampMode: req.ramp_mode === true,
    });
    if (d instanceof Promise) return d.then((x: CheckDecision) => toCheckResponse(x, expectEnd));
    return toCheckResponse(d, expectEnd);
  });
  return {
    Check: check,
    FlowEnd: unary<FlowEndRequest__Output, FlowEndResponse>(() => ({})),
    CacheLookup: cacheUnimplemented('CacheLookup'),
    CacheUpsert: cacheUnimplemented('CacheUpsert'),
    CacheDelete: cacheUnimplemented('CacheDelete'),
  };
}
