export { registerPreviewService } from './register-preview.js';
export { PreviewRegistry, httpSampleBytes, type ActivePreview, type PreviewKind, type PreviewSpec, type PreviewRegistryOptions } from './preview-registry.js';
export { mapInSlices, SLICE_MS } from './slices.js';
export { httpSample, httpSampleJson, parsedPath, parsedPairs } from './http-sample.js';
export { previewGatewayRoutes, PREVIEW_HTTP_REQUESTS_PATH, PREVIEW_LABELS_PATH, PREVIEW_DEADLINE_SLACK_MS } from './preview-routes.js';
export { previewServiceImpl } from './preview-grpc.js';
export { samplesFromQuery, waitFromQuery, samplesFromMessage, serviceFrom, labelFilterFromBody, previewParams, type PreviewParams } from './preview-request.js';
export {
  DEFAULT_SAMPLES, MAX_SAMPLES, DEFAULT_MAX_WAIT_MS, PREVIEW_BODY_LIMIT_BYTES, PREVIEW_DISABLED_MESSAGE, PREVIEW_STRUCT_MAX_DEPTH,
  PREVIEW_MAX_BYTES, PREVIEWS_MAX_TOTAL_BYTES, SAMPLE_OVERHEAD_BYTES,
  type FlowPreviewConfig, type PreviewServiceOptions,
} from './preview-config.js';
