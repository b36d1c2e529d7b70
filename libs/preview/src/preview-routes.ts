import { InvalidArgumentError } from '@sluice/errors';
import { SERVICE_NAMES, StructConversionError, jsonToStruct, structToJson, type ProtoStruct } from '@sluice/proto';
import type { GatewayInput, GatewayRoute } from '@sluice/server';
import { PREVIEW_BODY_LIMIT_BYTES, PREVIEW_STRUCT_MAX_DEPTH } from './preview-config.js';
import { labelFilterFromBody, samplesFromQuery, serviceFrom } from './preview-request.js';

export const PREVIEW_HTTP_REQUESTS_PATH = '/v1/flowcontrol/preview/http_requests/:control_point';
export const PREVIEW_LABELS_PATH = '/v1/flowcontrol/preview/labels/:control_point';

/** How much longer than the longest preview wait the gateway's gRPC deadline is. */
export const PREVIEW_DEADLINE_SLACK_MS = 1000;

function labelMatcherOf(filter: Readonly<Record<string, unknown>>): ProtoStruct {
  try {
    return jsonToStruct(filter, PREVIEW_STRUCT_MAX_DEPTH);
  } catch (err) {
    if (err instanceof StructConversionError) throw new InvalidArgumentError(`request body: ${err.message}`, 'body');
    throw err;
  }
}

/**
 * The gRPC PreviewRequest of an HTTP call: the control point from the path, `samples` and
 * `service` from the query, the label filter from the body. The filter itself is checked
 * by the gRPC handler, so HTTP and gRPC callers get the same errors. When the preview is
 * disabled nothing is checked here: the handler answers UNIMPLEMENTED (501).
 */
function toPreviewRequest(enabled: boolean) {
  return ({ params, query, body }: GatewayInput): object => {
    if (!enabled) return { control_point: params.control_point ?? '' };
    const samples = samplesFromQuery(query.samples);
    const service = serviceFrom(query.service);
    return { control_point: params.control_point, samples, service, label_matcher: labelMatcherOf(labelFilterFromBody(body)) };
  };
}

/** HTTP samples travel as google.protobuf.Struct over gRPC and leave as plain JSON objects. */
function httpSamplesJson(response: unknown): object {
  const samples = (response as { samples?: ProtoStruct[] | null }).samples ?? [];
  return { samples: samples.map((s) => structToJson(s)) };
}

/**
 * The preview's HTTP routes, through the gateway to FlowPreviewService: a client that goes
 * away cancels the gRPC call, which ends its preview at once.
 */
export function previewGatewayRoutes(enabled: boolean, maxWaitMs: number): GatewayRoute[] {
  const common = {
    method: 'post',
    service: SERVICE_NAMES.flowPreview,
    bodyLimitBytes: PREVIEW_BODY_LIMIT_BYTES,
    timeoutMs: maxWaitMs + PREVIEW_DEADLINE_SLACK_MS,
    toRequest: toPreviewRequest(enabled),
  } as const;
  return [
    { ...common, path: PREVIEW_HTTP_REQUESTS_PATH, rpc: 'PreviewHTTPRequests', fromResponse: httpSamplesJson },
    { ...common, path: PREVIEW_LABELS_PATH, rpc: 'PreviewFlowLabels' },
  ];
}
