import type { Request, RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { FastCounter, FastHistogram, type FastCounterChild, type FastHistogramChild } from '@sluice/telemetry';

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
  const requests = new FastCounter({ name: 'http_requests_total', help: 'HTTP requests served.', labelNames, registers: [registry] });
  const duration = new FastHistogram({
    name: 'http_request_duration_seconds', help: 'Time to serve an HTTP request, in seconds.',
    labelNames, buckets: latencyBucketsMs.map((ms) => ms / 1000), registers: [registry],
  });
  const errors = new FastCounter({ name: 'http_request_errors_total', help: 'HTTP requests answered with a 5xx status or aborted.', labelNames, registers: [registry] });

  // Children per label set, resolved once: an update is then a plain addition.
  type Children = { requests: FastCounterChild; duration: FastHistogramChild; errors: FastCounterChild };
  const children = new Map<string, Children>();
  const childrenFor = (method: string, route: string, status: string): Children => {
    const key = `${method} ${status} ${route}`;
    let c = children.get(key);
    if (c === undefined) {
      const labels = { method, route, status };
      c = { requests: requests.child(labels), duration: duration.child(labels), errors: errors.child(labels) };
      children.set(key, c);
    }
    return c;
  };

  return (req, res, next) => {
    const startedAt = performance.now();
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const status = aborted ? 'aborted' : String(res.statusCode);
      // Read at close: express 5 restores req.baseUrl only when a router passes the request
      // on, so for a handled request the mount prefix is still there (no res.end wrapping needed).
      const c = childrenFor(req.method, routeLabel(req), status);
      c.requests.inc();
      c.duration.observe((performance.now() - startedAt) / 1000);
      if (aborted || res.statusCode >= 500) c.errors.inc();
    });
    next();
  };
}
