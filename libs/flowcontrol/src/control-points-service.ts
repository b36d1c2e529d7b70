import type * as grpc from '@grpc/grpc-js';
import { unary } from '@sluice/server';
import type { Engine } from './engine.js';
import { timestampOf } from './proto-time.js';
import type { ControlPointMessage } from './proto-types.js';

/** sluice.flowcontrol.controlpoints.v1.ControlPointsService: GetControlPoints. */
export function controlPointsServiceImpl(engine: Engine): grpc.UntypedServiceImplementation {
  return {
    GetControlPoints: unary<Record<string, never>, { control_points: ControlPointMessage[] }>(() => ({
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
