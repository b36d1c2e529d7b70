import { onceShutdown, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { createHttpClient, type HttpClient } from '@sluice/clients';
import type { ControllerConfig } from '@sluice/config';
import { JobGroup } from '@sluice/jobs';
import type { Registry } from 'prom-client';
import type { ControllerEtcd } from './controller-etcd.js';
import { ControllerMetrics } from './metrics.js';
import type { PolicyLanguage } from './policy-language.js';
import { policyCheck, type PolicyCheckResult } from './policy-check.js';
import { PolicyRegistry } from './policy-registry.js';
import { PodScalerReports } from './pod-scaler-reports.js';
import { policySink, type PolicySink } from './policy-sink.js';
import { PolicyStore } from './policy-store.js';
import { DynamicConfigStore } from './dynamic-config-store.js';
import { checkQueryLabels } from './promql-labels.js';
import { prometheusBaseUrl } from './promql-query.js';
import { PromqlScheduler } from './promql-scheduler.js';
import { Publisher } from './publisher.js';
import type { AlertSink } from './running-policy.js';
import { registerPolicyService } from './register-policy-service.js';
import type { SluiceServer } from '@sluice/server';
import type { Logger } from '@sluice/telemetry/logger';

export interface PolicyControllerOptions {
  config: Pick<ControllerConfig, 'prometheus' | 'policies'>;
  etcd: ControllerEtcd;
  language: PolicyLanguage;
  registry: Registry;
  server: Pick<SluiceServer, 'addService' | 'addGatewayRoute'>;
  logger?: Logger;
  /** Default: an HTTP client made from `prometheus.http_client`. */
  prometheusClient?: HttpClient;
  /** Where the alerts the circuits raise go (see createAlerting); without it they are dropped. */
  alerts?: AlertSink;
}

/** The controller's policy machinery, as one component with an explicit lifecycle. */
export interface PolicyController extends Lifecycle {
  readonly name: 'policies';
  readonly policies: PolicyRegistry;
  readonly store: PolicyStore;
  /** Dynamic configurations posted to the API (kept in etcd). */
  readonly dynamicConfigs: DynamicConfigStore;
  /** What the Policy CR watcher calls. */
  readonly sink: PolicySink;
  /** What the policy validating webhook asks: would this spec compile, and what would it ignore. */
  readonly check: (name: string, spec: unknown, dynamicConfig?: unknown) => PolicyCheckResult;
  readonly publisher: Publisher;
  /** True once the stored policies and dynamic configurations were read from etcd. */
  storeSynced(): boolean;
  start(): Promise<void>;
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

/**
 * Wires the policy API (gRPC + HTTP routes on `server`), the registry of policies, their
 * circuits, the PromQL jobs (group `policies.promql_jobs_scheduler`, against
 * `prometheus.address` with `prometheus.http_client`, every selector carrying
 * `prometheus.labels`), the publication to etcd, the agents' reports back (pod scalers'
 * replicas, `<ns>/reports/`), and the store of API policies. Call
 * before the server starts; `start` begins reading the store and running jobs.
 */
export function createPolicyController(opts: PolicyControllerOptions): PolicyController {
  const { config, etcd, logger } = opts;
  const queryLabels = checkQueryLabels(config.prometheus.labels);
  const client = opts.prometheusClient ?? createHttpClient(config.prometheus.http_client);
  const ownsClient = opts.prometheusClient === undefined;
  const byStatus = { count: (): Map<string, number> => new Map() };
  const metrics = new ControllerMetrics(opts.registry, () => byStatus.count());
  const group = new JobGroup('promql_jobs_scheduler', config.policies.promql_jobs_scheduler);
  const scheduler = new PromqlScheduler(group, { client, baseUrl: prometheusBaseUrl(config.prometheus.address), metrics });
  const publisher = new Publisher(etcd, metrics, logger);
  const reports = new PodScalerReports(etcd, { registry: opts.registry, ...(logger ? { logger } : {}) });
  const policies = new PolicyRegistry({ language: opts.language, namespace: etcd.namespace, publisher, scheduler, metrics, queryLabels, reports, ...(opts.alerts ? { alerts: opts.alerts } : {}), ...(logger ? { logger } : {}) });
  byStatus.count = () => policies.countByStatus();
  const store = new PolicyStore(etcd, policies, metrics, logger);
  const dynamicConfigs = new DynamicConfigStore(etcd, policies, logger);
  // Keys under the published prefixes that no policy owns (left by a policy deleted while no
  // controller ran) are deleted once every source of policies was read and its policies run.
  let storeLoaded = false;
  let crsListed = !config.policies.cr_watcher.enabled;
  const collectWhenRead = (): void => { if (storeLoaded && crsListed) publisher.collect(); };
  store.onLoaded(() => { storeLoaded = true; collectWhenRead(); });
  const sink = policySink(policies, () => { crsListed = true; collectWhenRead(); });
  registerPolicyService(opts.server, policies, store, dynamicConfigs);
  return {
    name: 'policies',
    policies,
    store,
    dynamicConfigs,
    sink,
    check: policyCheck(policies),
    publisher,
    storeSynced: () => store.isSynced() && dynamicConfigs.isSynced(),
    async start() {
      // The first compile builds the compiler's validators (1–2 s of CPU). Do it when etcd first
      // answers (after start-up, before stored policies load): the process starts serving no
      // later for it, and the first policy applied is not slowed by it.
      let warmed = false;
      const warmUp = (): void => {
        if (warmed) return;
        warmed = true;
        try {
          opts.language.compilePolicy('warm-up', {});
        } catch {
          // An empty spec is refused; only the warm-up mattered.
        }
      };
      if (etcd.state() === 'connected') setImmediate(warmUp);
      else etcd.onStateChange((state) => { if (state === 'connected') warmUp(); });
      group.start();
      publisher.start();
      reports.start();
      store.start();
      dynamicConfigs.start();
    },
    shutdown: onceShutdown('policies', async () => {
      await Promise.all([store.shutdown(), dynamicConfigs.shutdown(), reports.shutdown()]);
      await policies.shutdown();
      await group.shutdown();
      await publisher.shutdown();
      if (ownsClient) await client.close();
    }),
  };
}
