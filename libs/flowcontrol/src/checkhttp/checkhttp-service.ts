import type * as grpc from '@grpc/grpc-js';
import { unary } from '@sluice/server';
import { CallCancellation } from '../check/call-cancellation.js';
import type { ServiceDiscovery } from '../services/check-service.js';
import { decideCheckHttp, type CheckHttpDeps } from './checkhttp-decide.js';
import { checkHttpStreamHandler, type CheckHttpStreamOptions } from './checkhttp-stream.js';
import type { Engine } from '../check/engine.js';
import type { FlowEnds } from '../flow-ends/flow-ends.js';
import type { CheckHTTPRequest__Output } from '@sluice/proto';
import type { CheckHTTPAnswer } from '../wire/check-response-wire.js';
import { deadlineMsOf } from '../check/request-checks.js';

export { toCheckHTTPResponse } from './checkhttp-decide.js';

/** sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP: CheckHTTP and CheckHTTPStream, one decision path. */
export function checkHttpServiceImpl(
  engine: Engine,
  discovery: ServiceDiscovery | undefined,
  streamOptions: CheckHttpStreamOptions = {},
  flowEnds?: FlowEnds,
): grpc.UntypedServiceImplementation {
  const deps: CheckHttpDeps = flowEnds === undefined ? { engine, discovery } : { engine, discovery, flowEnds };
  return {
    CheckHTTP: unary<CheckHTTPRequest__Output, CheckHTTPAnswer>((req, call) => decideCheckHttp(deps, req, deadlineMsOf(call.getDeadline()), new CallCancellation(call))),
    CheckHTTPStream: checkHttpStreamHandler(deps, streamOptions),
  };
}
