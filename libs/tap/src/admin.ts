import http from 'node:http';
import type { Registry } from 'prom-client';

/** Why the tap is not ready, or undefined when it is. */
export type Readiness = () => string | undefined;

/**
 * The admin endpoints on their own address: GET /metrics (Prometheus text),
 * GET /healthz (200 while serving, 503 once shutdown began; for liveness) and
 * GET /readyz (also 503 while the agent is unreachable past its grace).
 */
export function createAdminServer(registry: Registry, healthy: () => boolean, ready: Readiness = () => undefined): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(err)}\n`),
      );
      return;
    }
    if (path === '/healthz') {
      const ok = healthy();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'SERVING' : 'NOT_SERVING' }));
      return;
    }
    if (path === '/readyz') {
      const why = healthy() ? ready() : 'shutting down';
      res.writeHead(why === undefined ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify(why === undefined ? { status: 'SERVING' } : { status: 'NOT_SERVING', reason: why }));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
}
