import type * as grpc from '@grpc/grpc-js';
import { serviceClient, toProto3Json, fromProto3Json } from '@sluice/proto';
import { JsonText, unary, type GatewayInput } from '@sluice/server';
import type { ApertureCheckHTTPRequest__Output, ApertureCheckHTTPResponse, CheckHTTPRequest__Output, HeaderValue } from '@sluice/proto';
import { readApertureCheckHttpRequest, writeApertureCheckHttpResponse } from './aperture-checkhttp-json.js';
import { CallCancellation } from '../check/call-cancellation.js';
import { encodeCheckResponse, type CheckHTTPAnswer } from '../wire/check-response-wire.js';
import type { ServiceDiscovery } from '../services/check-service.js';
import { decideCheckHttp } from './checkhttp-decide.js';
import type { Engine } from '../check/engine.js';
import { deadlineMsOf } from '../check/request-checks.js';
import { GrpcCode } from '@sluice/errors';

/** The dynamic metadata key Aperture's gateways read the flow's CheckResponse from. */
export const CHECK_RESPONSE_METADATA_KEY = 'aperture.check_response';

/** The google.rpc.Code of a denial's HTTP status, as the gateway's error mapping reads backwards. */
const GRPC_CODE_OF_STATUS: Readonly<Record<number, number>> = { 400: GrpcCode.INVALID_ARGUMENT, 403: GrpcCode.PERMISSION_DENIED, 429: GrpcCode.RESOURCE_EXHAUSTED, 503: GrpcCode.UNAVAILABLE };

function headerMap(headers: readonly HeaderValue[] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers ?? []) if (h.key !== undefined) out[h.key] = h.value ?? '';
  return out;
}

/** Aperture's CheckHTTPRequest as the one the agent decides (same attributes; no header interest, no ramp mode). */
export function fromApertureRequest(req: ApertureCheckHTTPRequest__Output): CheckHTTPRequest__Output {
  const r = req.request;
  return {
    source: req.source,
    destination: req.destination,
    control_point: req.control_point,
    request: r === null ? null : { ...r, truncated_body: false },
    ramp_mode: false,
  };
}

/**
 * The answer in Aperture's shape: status OK or the denial's code, headers as maps, and the
 * flow's CheckResponse protobuf, base64, as dynamic metadata `aperture.check_response`.
 */
export function toApertureResponse(a: CheckHTTPAnswer): ApertureCheckHTTPResponse {
  const metadata = a.check_response === null || a.check_response === undefined
    ? undefined
    : { fields: { [CHECK_RESPONSE_METADATA_KEY]: { stringValue: encodeCheckResponse(a.check_response).toString('base64') } } };
  const denied = a.denied_response;
  if (denied !== null && denied !== undefined) {
    const status = denied.status ?? 403;
    return {
      status: { code: GRPC_CODE_OF_STATUS[status] ?? GrpcCode.PERMISSION_DENIED, message: `rejected with HTTP status ${status}` },
      denied_response: { status, headers: headerMap(denied.headers), body: denied.body ?? '' },
      dynamic_metadata: metadata,
    };
  }
  return { status: { code: GrpcCode.OK }, ok_response: { headers: headerMap(a.ok_response?.headers) }, dynamic_metadata: metadata };
}

/**
 * aperture.flowcontrol.checkhttp.v1.FlowControlServiceHTTP/CheckHTTP, what Aperture's HTTP and gRPC
 * middlewares and its Lua gateway plugin call: the decision of Sluice's own CheckHTTP (labels,
 * path normalization, services from the destination address), answered in Aperture's shape.
 * These callers report a flow's end with a span (OTLP), not FlowEnd: no flow is begun here.
 */
export function apertureCheckHttpServiceImpl(engine: Engine, discovery: ServiceDiscovery | undefined): grpc.UntypedServiceImplementation {
  const deps = { engine, discovery };
  return {
    CheckHTTP: unary<ApertureCheckHTTPRequest__Output, ApertureCheckHTTPResponse>((req, call) => {
      const a = decideCheckHttp(deps, fromApertureRequest(req), deadlineMsOf(call.getDeadline()), new CallCancellation(call));
      return a instanceof Promise ? a.then(toApertureResponse) : toApertureResponse(a);
    }),
  };
}

/**
 * `POST /v1/flowcontrol/checkhttp` answered in this process (the gateway route's `local`), the
 * per-request path of gateways: the body read straight from the shape gateways send and the
 * answer written straight to JSON (aperture-checkhttp-json.ts). Any other body takes the generic
 * path: checked as proto3 JSON (400 naming the field), then encoded and decoded by the method's
 * own (de)serializers, so the decision sees the message exactly as the gRPC method does (defaults,
 * enum names); the same for an answer the fast writer does not take. No gRPC call to this agent's
 * own port either way. `timeoutMs` bounds a wait.
 */
export function apertureCheckHttpLocal(engine: Engine, discovery: ServiceDiscovery | undefined, timeoutMs: number): (input: GatewayInput, signal: AbortSignal) => Promise<unknown> {
  const check = apertureCheckHttpJson(engine, discovery, timeoutMs);
  return async ({ body }, signal) => new JsonText(await check(body, signal));
}

/** The decision of one Aperture CheckHTTPRequest (proto3 JSON) as CheckHTTPResponse JSON text (see apertureCheckHttpLocal). */
export function apertureCheckHttpJson(engine: Engine, discovery: ServiceDiscovery | undefined, timeoutMs: number): (body: unknown, signal: AbortSignal) => Promise<string> {
  const deps = { engine, discovery };
  const method = serviceClient('apertureFlowControlHttp').service.CheckHTTP;
  const genericRequest = (body: unknown): ApertureCheckHTTPRequest__Output => {
    const message = fromProto3Json('aperture.flowcontrol.checkhttp.v1.CheckHTTPRequest', body);
    return method.requestDeserialize(method.requestSerialize(message)) as ApertureCheckHTTPRequest__Output;
  };
  return async (body, signal) => {
    const req = readApertureCheckHttpRequest(body) ?? genericRequest(body);
    const answer = toApertureResponse(await decideCheckHttp(deps, fromApertureRequest(req), Date.now() + timeoutMs, signal));
    return writeApertureCheckHttpResponse(answer)
      ?? JSON.stringify(toProto3Json('aperture.flowcontrol.checkhttp.v1.CheckHTTPResponse', method.responseDeserialize(method.responseSerialize(answer))));
  };
}
