import { InvalidArgumentError } from '@sluice/errors';
import { SERVICE_NAMES, StructConversionError, jsonToStruct, structToJson, type ProtoStruct } from '@sluice/proto';
import { JsonText, type GatewayInput, type GatewayRoute } from '@sluice/server';
import { PREVIEW_BODY_LIMIT_BYTES, PREVIEW_STRUCT_MAX_DEPTH } from './preview-config.js';
import type { PreviewKind, PreviewRegistry } from './preview-registry.js';
import { labelFilterFromBody, previewParams, samplesFromQuery, serviceFrom, waitFromQuery } from './preview-request.js';

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
 * A preview served in this process for an HTTP client: the same checks and errors as the gRPC
 * method (the request is first shaped as the gRPC request would be), then the samples written
 * as JSON text built in slices. No google.protobuf.Struct round trip: for 8 KiB JSON bodies that
 * round trip cost seconds of event loop per preview.
 */
function localPreview(registry: PreviewRegistry, kind: PreviewKind, maxWaitMs: number, toRequest: (input: GatewayInput) => object) {
  return async (input: GatewayInput, signal: AbortSignal): Promise<JsonText> => {
    const { control_point, samples, service } = toRequest(input) as { control_point: string; samples: number; service: string };
    const p = previewParams(control_point, samples, service, labelFilterFromBody(input.body));
    const preview = registry.start({ kind, ...p, waitMs: waitFromQuery(input.query.wait_ms, maxWaitMs) });
    const onAbort = (): void => preview.cancel();
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      const parts = await preview.jsonTexts();
      return new JsonText(`{"samples":[${parts.join(',')}]}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
}

/**
 * The preview's HTTP routes. Enabled, they are served in this process (localPreview) with the
 * gRPC method's checks and errors; a client that goes away ends its preview at once. Disabled,
 * they go through the gateway to FlowPreviewService, which answers UNIMPLEMENTED (501).
 */
export function previewGatewayRoutes(registry: PreviewRegistry | undefined, maxWaitMs: number): GatewayRoute[] {
  const toRequest = toPreviewRequest(registry !== undefined);
  const common = {
    method: 'post',
    service: SERVICE_NAMES.flowPreview,
    bodyLimitBytes: PREVIEW_BODY_LIMIT_BYTES,
    timeoutMs: maxWaitMs + PREVIEW_DEADLINE_SLACK_MS,
    toRequest,
  } as const;
  const local = (kind: PreviewKind) => (registry === undefined ? {} : { local: localPreview(registry, kind, maxWaitMs, toRequest) });
  return [
    { ...common, path: PREVIEW_HTTP_REQUESTS_PATH, rpc: 'PreviewHTTPRequests', fromResponse: httpSamplesJson, ...local('http') },
    { ...common, path: PREVIEW_LABELS_PATH, rpc: 'PreviewFlowLabels', ...local('labels') },
  ];
}
