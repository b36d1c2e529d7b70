import os from 'node:os';
import { named } from '@sluice/lifecycle';
import { AgentLink, agentFunctionsToken, agentName } from '@sluice/agentfunctions';
import type { AgentConfig } from '@sluice/config';
import type { ProcessRuntime } from '@sluice/runtime';

/**
 * Agent functions (`agent_functions.endpoints`): a stream to each controller, over which the
 * controller calls the agent's read-only routes (previews, control points, entities, enforced
 * policies, peers, dist-cache stats). Nothing when no endpoint is set. A token file that cannot be
 * read or holds no token is an AgentFunctionsTokenError (exit 2).
 */
export function installAgentFunctions(runtime: ProcessRuntime, config: AgentConfig, version: string): void {
  const endpoints = config.agent_functions.endpoints;
  if (endpoints.length === 0) return;
  const name = agentName(os.hostname(), process.pid, process.env);
  // The bearer token for a controller with server.auth (agent_functions.token_file or token).
  const token = agentFunctionsToken(config.agent_functions);
  const link = new AgentLink({
    endpoints,
    grpc: config.agent_functions.client.grpc,
    hello: () => {
      try {
        const a = runtime.server.address();
        return { agent_group: config.agent_info.agent_group, agent_name: name, address: `${a.host}:${a.port}`, version };
      } catch {
        return undefined; // not listening yet
      }
    },
    inject: (r) => runtime.server.inject(r),
    ...(token !== undefined ? { token } : {}),
    logger: runtime.logger,
  });
  runtime.lifecycle.add(named('agent-functions', link));
}
