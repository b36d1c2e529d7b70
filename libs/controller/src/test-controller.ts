import type { TestContext } from 'node:test';
import { DEFAULT_HTTP_CLIENT_CONFIG } from '@sluice/clients';
import { compilePolicy } from '@sluice/policies';
import type { Logger } from '@sluice/telemetry/logger';
import { Registry } from 'prom-client';
import { createPolicyController, type PolicyController } from './controller.js';
import { MemoryEtcd } from './test-support.js';

/**
 * A started policy controller for tests, stopped when `t` ends: on `etcd` (default a new
 * MemoryEtcd), the real policy compiler, no CR watcher, and a Prometheus address nothing listens
 * on (1 s timeout), so that only policies without PromQL reach a decision.
 */
export function startTestController(t: TestContext, opts: { etcd?: MemoryEtcd; logger?: Logger } = {}): { etcd: MemoryEtcd; c: PolicyController } {
  const etcd = opts.etcd ?? new MemoryEtcd();
  const c = createPolicyController({
    config: {
      prometheus: { address: 'http://127.0.0.1:9', labels: [], http_client: { ...DEFAULT_HTTP_CLIENT_CONFIG, timeout: '1s' } },
      policies: { cr_watcher: { enabled: false }, promql_jobs_scheduler: { blocking_execution: false, worker_limit: 0 } },
    },
    etcd, language: { compilePolicy }, registry: new Registry(),
    ...(opts.logger !== undefined ? { logger: opts.logger } : {}),
    server: { addService: () => undefined, addGatewayRoute: () => undefined },
  });
  c.start();
  t.after(() => c.shutdown());
  return { etcd, c };
}
