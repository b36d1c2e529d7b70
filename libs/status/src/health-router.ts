import { Router, type Response } from 'express';
import { GrpcCode } from '@sluice/errors';
import type { StatusRegistry } from './status-registry.js';
import type { Status } from './status.js';

function view(status: Status): { healthy: boolean; message: string; timestamp: string; details?: Record<string, unknown> } {
  return {
    healthy: status.healthy,
    message: status.message,
    timestamp: status.timestamp.toISOString(),
    ...(status.details === undefined ? {} : { details: status.details }),
  };
}

function answer(res: Response, registry: StatusRegistry, subtree: 'liveness' | 'readiness'): void {
  const summary = registry.summary(subtree);
  const checks = Object.fromEntries(Object.entries(summary.entries).map(([path, status]) => [path, view(status)]));
  res.set('Cache-Control', 'no-store');
  if (summary.healthy) {
    res.status(200).json({ status: 'healthy', message: `${subtree}: ${Object.keys(checks).length} check(s) healthy`, checks });
    return;
  }
  const reasons = summary.failing.map((f) => `${f.path}: ${f.message}`).join('; ');
  res.status(503).json({
    code: GrpcCode.UNAVAILABLE,
    message: `${subtree} unhealthy: ${reasons}`,
    details: [],
    status: 'unhealthy',
    failing: summary.failing,
    checks,
  });
}

/**
 * Health routes over a StatusRegistry:
 * - `GET /v1/status/system/liveness` and `GET /v1/status/system/readiness`: 200
 *   `{status:"healthy", message, checks}` when every entry of that subtree is
 *   healthy, else 503 `{code:14, message, details:[], status:"unhealthy", failing, checks}`
 *   (the gateway error shape, extended with the failing checks).
 * - `GET /healthz`: 200 `ok` when liveness is healthy, else 503 with the reasons (text).
 */
export function healthRouter(registry: StatusRegistry): Router {
  const router = Router();
  router.get('/v1/status/system/liveness', (_req, res) => answer(res, registry, 'liveness'));
  router.get('/v1/status/system/readiness', (_req, res) => answer(res, registry, 'readiness'));
  router.get('/healthz', (_req, res) => {
    const summary = registry.summary('liveness');
    res.set('Cache-Control', 'no-store').type('text/plain');
    if (summary.healthy) res.status(200).send('ok');
    else res.status(503).send(`unhealthy: ${summary.failing.map((f) => `${f.path}: ${f.message}`).join('; ')}`);
  });
  return router;
}
