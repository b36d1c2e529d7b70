// The controller's wiring, once its configuration is loaded (main.ts).
import { named } from '@sluice/lifecycle';
import type { LoadedConfig } from '@sluice/config';
import { ALERTS_PATH, createAlerting, createPolicyController, settledReadinessJob } from '@sluice/controller';
import { AgentHub, agentFunctionsRouter, agentFunctionsService, agentsService, agentsServiceImpl } from '@sluice/agentfunctions';
import { createEtcd, etcdReadinessJob } from '@sluice/etcd';
import { compilePolicy } from '@sluice/policies';
import { createProcessRuntime } from '@sluice/runtime';
import { WHATIF_PATH, whatIfRouter } from '@sluice/whatif';
import { installHeartbeats } from './cloudext.js';
import { policyCrWatcher } from './cr-watcher.js';
import { installAdmissionWebhooks } from './webhook.js';

/** Starts the controller and runs it until it stops; resolves with the process's exit status. */
export async function runController({ config }: LoadedConfig<'controller'>): Promise<number> {
  const runtime = createProcessRuntime(config, 'controller');
  let exitCode: number;
  try {
    // Published configs and decisions are on no lease (agents keep them through any absence of the
    // controller); the lease is not revoked at shutdown all the same, so nothing on it is deleted by a restart.
    const etcd = createEtcd(config.etcd, { logger: runtime.logger, registry: runtime.registry, revokeLeaseOnShutdown: false });
    // Readiness shows etcd's state; liveness does not depend on it (etcd away never stops the controller).
    runtime.addReadinessJob(settledReadinessJob(etcd, etcdReadinessJob(etcd)));
    // Alerts of alerter components: sent to `alerts.alertmanagers`, the active ones on GET /v1/alerts.
    const alerting = createAlerting({ config, registry: runtime.registry, logger: runtime.logger });
    runtime.server.app.get(ALERTS_PATH, (req, res) => alerting.route(req, res));
    const policies = createPolicyController({
      config, etcd, language: { compilePolicy }, registry: runtime.registry, server: runtime.server, logger: runtime.logger, alerts: alerting.book,
    });
    runtime.lifecycle.add(named('etcd', etcd));
    runtime.lifecycle.add(named(alerting.name, alerting));
    runtime.lifecycle.add(named('policies', policies));
    // Sidecar injection: POST /v1/admission/inject[/namespace] (the `injector` keys say what is injected);
    // Policy validation: POST /v1/admission/validate/policy (the policy API's compiler).
    installAdmissionWebhooks(runtime, config.injector, config.server.tls.enabled, policies.check, runtime.logger);
    // Agent functions: agents (agent_functions.endpoints) hold a stream to this controller; their read-only
    // routes are served under /v1/agents (GET /v1/agents lists them). At shutdown the streams end first.
    const agents = new AgentHub(runtime.logger);
    runtime.server.addService(agentFunctionsService().service, agents.serviceImpl());
    runtime.server.addService(agentsService().service, agentsServiceImpl(agents));
    runtime.server.app.use('/v1/agents', agentFunctionsRouter(agents));
    runtime.lifecycle.add(named('agent-functions', agents));
    // What-if: POST /v1/whatif replays a policy, compiled as applying it would be, over live samples from those agents.
    runtime.server.app.use(WHATIF_PATH, whatIfRouter({ hub: agents, compile: (name, spec) => policies.policies.compile(name, spec) }));
    if (config.policies.cr_watcher.enabled) {
      const crs = await policyCrWatcher(policies.sink, runtime.logger);
      runtime.addReadinessJob(crs.readiness);
      for (const c of crs.components) runtime.lifecycle.add(c);
    }
    // Heartbeats to cloudext.endpoint while cloudext.api_key is set.
    installHeartbeats(runtime, config, policies);
    exitCode = await runtime.run();
  } catch (err) {
    // Settings that cannot work (etcd TLS files, prometheus labels) are configuration problems: exit 2.
    exitCode = 2;
    runtime.logger.error('start-up failed', { error: err instanceof Error ? err.message : String(err) });
    process.stderr.write(`sluice-controller: ${err instanceof Error ? err.message : String(err)}\n`);
    await runtime.logger.close();
  }
  return exitCode;
}
