import type { SluiceServer } from '@sluice/server';
import { policyServiceDefinition, policyServiceImpl } from './policy-grpc.js';
import type { PolicyRegistry } from './policy-registry.js';
import { policyGatewayRoutes } from './policy-routes.js';
import type { PolicyStore } from './policy-store.js';
import type { DynamicConfigStore } from './dynamic-config-store.js';

/** Registers PolicyService over gRPC and its HTTP routes (before the server starts). */
export function registerPolicyService(server: Pick<SluiceServer, 'addService' | 'addGatewayRoute'>, registry: PolicyRegistry, store: PolicyStore, dynamic: DynamicConfigStore): void {
  server.addService(policyServiceDefinition(), policyServiceImpl(registry, store, dynamic));
  for (const route of policyGatewayRoutes()) server.addGatewayRoute(route);
}
