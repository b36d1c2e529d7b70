import type * as grpc from '@grpc/grpc-js';
import { unary } from '@sluice/server';
import type { Engine } from '../check/engine.js';
import { timestampOf } from '../wire/proto-time.js';
import type { GetControlPointsRequest__Output, GetControlPointsResponse } from '@sluice/proto';

/** sluice.flowcontrol.controlpoints.v1.ControlPointsService: GetControlPoints. */
export function controlPointsServiceImpl(engine: Engine): grpc.UntypedServiceImplementation {
  return {
    GetControlPoints: unary<GetControlPointsRequest__Output, GetControlPointsResponse>(() => ({
      control_points: engine.controlPoints.list().map((e) => ({
        control_point: e.controlPoint,
        service: e.service,
        type: e.type,
        last_seen: timestampOf(e.lastSeenMs),
        flows: e.flows,
      })),
    })),
  };
}
