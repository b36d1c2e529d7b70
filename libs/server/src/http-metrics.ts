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

  // Bound children per label set: label hashing is the expensive part of an update.
  type Children = { requests: ReturnType<typeof requests.labels>; duration: ReturnType<typeof duration.labels>; errors: ReturnType<typeof errors.labels> };
  const children = new Map<string, Children>();
  const childrenFor = (method: string, route: string, status: string): Children => {
    const key = `${method} ${status} ${route}`;
    let c = children.get(key);
    if (c === undefined) {
      const labels = { method, route, status };
      c = { requests: requests.labels(labels), duration: duration.labels(labels), errors: errors.labels(labels) };
      children.set(key, c);
    }
    return c;
  };

  return (req, res, next) => {
    const startedAt = performance.now();
    // Captured when the response ends: express restores baseUrl once routing unwinds.
    let route: string | undefined;
    const origEnd = res.end;
    res.end = function (this: typeof res, ...args: unknown[]) {
      route ??= routeLabel(req);
      return (origEnd as (...a: unknown[]) => typeof res).apply(this, args);
    } as typeof res.end;
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const status = aborted ? 'aborted' : String(res.statusCode);
      const c = childrenFor(req.method, route ?? routeLabel(req), status);
      c.requests.inc();
      c.duration.observe((performance.now() - startedAt) / 1000);
      if (aborted || res.statusCode >= 500) c.errors.inc();
    });
    next();
  };
}
