import { SERVICE_NAMES, fromProto3Json, serviceClient, toProto3Json, withResponseSerializers } from '@sluice/proto';
import { encodeCheckAnswer, encodeCheckHTTPResponse, encodeCheckHTTPStreamResponse } from '../wire/check-response-wire.js';
import type { SluiceServer } from '@sluice/server';
import { flowControlServiceImpl, type ServiceDiscovery } from './check-service.js';
import { checkHttpServiceImpl } from '../checkhttp/checkhttp-service.js';
import { apertureCheckHttpJson, apertureCheckHttpLocal, apertureCheckHttpServiceImpl } from '../checkhttp/aperture-checkhttp.js';
import { checkHttpLinesRoute } from '../checkhttp/checkhttp-lines.js';
import type { CheckHttpStreamOptions } from '../checkhttp/checkhttp-stream.js';
import { controlPointsServiceImpl } from './control-points-service.js';
import type { Engine } from '../check/engine.js';
import type { FlowEnds } from '../flow-ends/flow-ends.js';

/**
 * The answers of Check, CheckHTTP and CheckHTTPStream are built in wire shape and encoded
 * by the protobufjs types of their .proto files without the loader's fromObject copy
 * (Check's limiter decisions written behind the rest, encodeCheckAnswer; CheckHTTP's
 * already encoded, checkResponseWire); the other methods are the loader's.
 */
function checkServiceDefinition(): ReturnType<typeof withResponseSerializers> {
  return withResponseSerializers(serviceClient('flowControl').service, { Check: encodeCheckAnswer });
}

function checkHttpServiceDefinition(): ReturnType<typeof withResponseSerializers> {
  return withResponseSerializers(serviceClient('flowControlHttp').service, {
    CheckHTTP: encodeCheckHTTPResponse,
    CheckHTTPStream: encodeCheckHTTPStreamResponse,
  });
}

/**
 * Register the flow-control gRPC services on the server (before start):
 * FlowControlService (Check, FlowEnd, Cache* answering UNIMPLEMENTED),
 * sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP (CheckHTTP, CheckHTTPStream, what the
 * tap asks), aperture.flowcontrol.checkhttp.v1.FlowControlServiceHTTP (CheckHTTP, what Aperture's
 * middlewares and gateways ask) and ControlPointsService, with the gateway routes
 * `POST /v1/flowcontrol/checkhttp` (Aperture's CheckHTTP, as Aperture's Lua plugin calls it;
 * answered in this process, no gRPC hop), its stream form for gateways
 * (`GET /v1/flowcontrol/checkhttp/stream` with `Upgrade: sluice-checkhttp-ndjson`: a check per line,
 * checkhttp-lines.ts),
 * `POST /v1/flowcontrol/flowend` (FlowEnd, for callers without gRPC) and
 * `GET /v1/flowcontrol/controlpoints`, proto3 JSON both ways: a body of wrong
 * types or unknown fields is refused with 400 naming the field; answers have
 * RFC 3339 timestamps, duration strings and no loader oneof discriminators.
 * `discovery` maps the peer IP (Check) or the destination address (CheckHTTP)
 * to the flow's services. `opts.checkHttpStream` bounds (and observes) the
 * CheckHTTPStream streams. `opts.flowEnds` measures the flows flux meters
 * select: CheckHTTP answers a flow_id, FlowEnd ends it.
 */
export function registerFlowControlServices(
  server: Pick<SluiceServer, 'addService' | 'addGatewayRoute' | 'addUpgradeRoute'>,
  engine: Engine,
  discovery?: ServiceDiscovery,
  opts: { checkHttpStream?: CheckHttpStreamOptions; flowEnds?: FlowEnds } = {},
): void {
  server.addService(checkServiceDefinition(), flowControlServiceImpl(engine, discovery, opts.flowEnds));
  server.addService(checkHttpServiceDefinition(), checkHttpServiceImpl(engine, discovery, opts.checkHttpStream, opts.flowEnds));
  server.addService(serviceClient('apertureFlowControlHttp').service, apertureCheckHttpServiceImpl(engine, discovery));
  server.addService(serviceClient('controlPoints').service, controlPointsServiceImpl(engine));
  server.addGatewayRoute({
    method: 'post',
    path: '/v1/flowcontrol/checkhttp',
    service: SERVICE_NAMES.apertureFlowControlHttp,
    rpc: 'CheckHTTP',
    requireBody: true,
    timeoutMs: 10_000,
    toRequest: ({ body }) => fromProto3Json('aperture.flowcontrol.checkhttp.v1.CheckHTTPRequest', body),
    fromResponse: (r) => toProto3Json('aperture.flowcontrol.checkhttp.v1.CheckHTTPResponse', r),
    // Answered in this process: this is the per-request path of gateways (nginx's Lua handler).
    local: apertureCheckHttpLocal(engine, discovery, 10_000),
  });
  server.addUpgradeRoute(checkHttpLinesRoute(apertureCheckHttpJson(engine, discovery, 10_000)));
  server.addGatewayRoute({
    method: 'post',
    path: '/v1/flowcontrol/flowend',
    service: SERVICE_NAMES.flowControl,
    rpc: 'FlowEnd',
    requireBody: true,
    timeoutMs: 10_000,
    toRequest: ({ body }) => fromProto3Json('aperture.flowcontrol.check.v1.FlowEndRequest', body),
    fromResponse: (r) => toProto3Json('aperture.flowcontrol.check.v1.FlowEndResponse', r),
  });
  server.addGatewayRoute({
    method: 'get',
    path: '/v1/flowcontrol/controlpoints',
    service: SERVICE_NAMES.controlPoints,
    rpc: 'GetControlPoints',
    timeoutMs: 10_000,
    toRequest: () => ({}),
    fromResponse: (r) => toProto3Json('sluice.flowcontrol.controlpoints.v1.GetControlPointsResponse', r),
  });
}
