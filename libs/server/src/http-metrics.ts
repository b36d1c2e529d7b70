import type { Request, RequestHandler } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';

/** The route label: the matched express pattern (bounded cardinality), never the raw URL. */
export function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route === undefined || typeof route.path !== 'string') return 'unmatched';
  return `${req.baseUrl}${route.path}`;
}

/**
 * HTTP server metrics: http_requests_total, http_request_duration_seconds (buckets from
 * server.http.latency_buckets_ms) by method, route pattern and status, and
 * http_request_errors_total for 5xx answers and aborted requests.
 */
export function httpMetricsMiddleware(registry: Registry, latencyBucketsMs: number[]): RequestHandler {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests served.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time to serve an HTTP request, in seconds.',
    labelNames, buckets: latencyBucketsMs.map((ms) => ms / 1000), registers: [registry],
  });
  const errors = new Counter({ name: 'http_request_errors_total', help: 'HTTP requests answered with a 5xx status or aborted.', labelNames, registers: [registry] });

  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    // Captured when the route matches: express restores baseUrl once routing unwinds.
    let route = 'unmatched';
    const capture = (): void => {
      if (route === 'unmatched') route = routeLabel(req);
    };
    const origEnd = res.end.bind(res);
    res.end = ((...args: Parameters<typeof res.end>) => {
      capture();
      return origEnd(...args);
    }) as typeof res.end;
    const record = (aborted: boolean): void => {
      capture();
      const labels = { method: req.method, route, status: aborted ? 'aborted' : String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - startedAt) / 1e9);
      if (aborted || res.statusCode >= 500) errors.inc(labels);
    };
    res.once('finish', () => record(false));
    res.once('close', () => {
      if (!res.writableFinished) record(true);
    });
    next();
  };
}
