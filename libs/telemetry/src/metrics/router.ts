import { Router, type Request, type Response } from 'express';
import { Registry } from 'prom-client';
import { SluiceError, toGatewayError, ErrorCode } from '@sluice/errors';
import { highCardinalityOf, isHighCardinalityMetric } from './high-cardinality.js';

export interface MetricsRouterOptions {
  /** Serve the high-cardinality grpcserver_* families. Default: what the registry was created with, else false. */
  highCardinality?: boolean;
}

/** The scrape body: every family in the Prometheus text format, less the hidden ones. */
export async function renderMetrics(registry: Registry, highCardinality: boolean): Promise<string> {
  if (highCardinality) return registry.metrics();
  const names = registry.getMetricsAsArray().map((m) => m.name).filter((name) => !isHighCardinalityMetric(name));
  const families = await Promise.all(names.map((name) => registry.getSingleMetricAsString(name)));
  return `${families.join('\n\n')}\n`;
}

/** `GET /metrics` in the Prometheus text format. A failed collection answers 500 in the gateway error shape. */
export function metricsRouter(registry: Registry, opts: MetricsRouterOptions = {}): Router {
  if (registry.contentType !== Registry.PROMETHEUS_CONTENT_TYPE) {
    throw new TypeError(`metricsRouter serves the Prometheus text format; the registry is ${registry.contentType}`);
  }
  const highCardinality = opts.highCardinality ?? highCardinalityOf(registry) ?? false;
  const router = Router();
  router.get('/metrics', async (_req: Request, res: Response) => {
    let body: string;
    try {
      body = await renderMetrics(registry, highCardinality);
    } catch (err) {
      const failure = err instanceof SluiceError
        ? err
        : new SluiceError(ErrorCode.METRICS_COLLECTION, `collecting metrics failed: ${(err as Error).message}`, { cause: err });
      const { status, body: errorBody } = toGatewayError(failure);
      res.status(status).json(errorBody);
      return;
    }
    res.status(200).type(registry.contentType).send(body);
  });
  return router;
}
