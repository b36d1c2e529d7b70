import type { Engine } from '@sluice/flowcontrol';
import { serviceClient } from '@sluice/proto';
import { Gauge } from 'prom-client';
import type { SluiceServer } from '@sluice/server';
import { DEFAULT_MAX_WAIT_MS, type FlowPreviewConfig, type PreviewServiceOptions } from './preview-config.js';
import { previewServiceImpl } from './preview-grpc.js';
import { PreviewRegistry } from './preview-registry.js';
import { previewGatewayRoutes } from './preview-routes.js';

/**
 * Register the flow preview (before the server starts): the gRPC
 * FlowPreviewService (PreviewFlowLabels, PreviewHTTPRequests) and the HTTP
 * routes `POST /v1/flowcontrol/preview/http_requests/:control_point` and
 * `POST /v1/flowcontrol/preview/labels/:control_point`, gateway routes to
 * that service (an HTTP client going away cancels its call). When disabled, both
 * answer UNIMPLEMENTED / 501 naming the configuration key and its
 * environment variable, and the engine is not observed at all. Answers the
 * registry (undefined when disabled).
 */
export function registerPreviewService(
  server: Pick<SluiceServer, 'addService' | 'addGatewayRoute'>,
  engine: Engine,
  config: FlowPreviewConfig,
  opts: PreviewServiceOptions = {},
): PreviewRegistry | undefined {
  const maxWaitMs = Math.max(0, opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const registry = config.enabled
    ? new PreviewRegistry({
      ...(opts.maxActive !== undefined ? { maxActive: opts.maxActive } : {}),
      ...(opts.maxBytesPerPreview !== undefined ? { maxBytesPerPreview: opts.maxBytesPerPreview } : {}),
      ...(opts.maxTotalBytes !== undefined ? { maxTotalBytes: opts.maxTotalBytes } : {}),
    })
    : undefined;
  if (registry !== undefined) engine.addObserver(registry);
  if (registry !== undefined && opts.metrics !== undefined) {
    new Gauge({
      name: 'flow_preview_active',
      help: 'Flow previews (HTTP requests and labels) running now',
      registers: [opts.metrics],
      collect() { this.set(registry.size); },
    });
  }
  server.addService(serviceClient('flowPreview').service, previewServiceImpl(registry, maxWaitMs));
  for (const route of previewGatewayRoutes(registry, maxWaitMs)) server.addGatewayRoute(route);
  return registry;
}
