import type * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { InvalidArgumentError } from '@sluice/errors';
import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import type { StatusRegistry } from './status-registry.js';
import { pruneEmptyWatchers } from './watch-pruning.js';

export type ServingStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN';

export interface HealthGrpcService extends Lifecycle {
  /** `grpc.health.v1.Health` (Check, Watch, List), for `server.addService`. */
  readonly definition: grpc.ServiceDefinition;
  readonly implementation: grpc.UntypedServiceImplementation;
  /** Sets the status of a named service (`true` = SERVING, `false` = NOT_SERVING). */
  setServingStatus(service: string, status: boolean | ServingStatus): void;
  /** Shutdown stops following the registry and reports NOT_SERVING for every known service. */
}

/** Service names that follow the registry rather than `setServingStatus`. */
export const OVERALL_SERVICE = '';
/** The services derived from the registry, and how: overall needs both subtrees healthy. */
const DERIVED = new Map<string, (liveness: boolean, readiness: boolean) => boolean>([
  [OVERALL_SERVICE, (l, r) => l && r],
  ['liveness', (l) => l],
  ['readiness', (_l, r) => r],
]);

/**
 * The standard gRPC health service (the `grpc-health-check` package's
 * implementation) driven by a StatusRegistry: service `''` is SERVING when the
 * `liveness` and `readiness` subtrees are healthy, services `liveness` and
 * `readiness` follow their subtree, and any other name is set by
 * `setServingStatus`. Unknown names: Check answers NOT_FOUND, Watch sends SERVICE_UNKNOWN.
 */
export function healthGrpcService(registry: StatusRegistry): HealthGrpcService {
  const health = new HealthImplementation();
  const current = new Map<string, ServingStatus>();
  const put = (service: string, status: ServingStatus): void => {
    if (current.get(service) === status) return;
    current.set(service, status);
    health.setStatus(service, status);
  };
  const follow = (): void => {
    const liveness = registry.isHealthy('liveness');
    const readiness = registry.isHealthy('readiness');
    for (const [service, healthy] of DERIVED) put(service, healthy(liveness, readiness) ? 'SERVING' : 'NOT_SERVING');
  };
  follow();
  let unsubscribe: (() => void) | undefined = registry.subscribe(follow);

  let definition: grpc.ServiceDefinition | undefined;
  let implementation: grpc.UntypedServiceImplementation | undefined;
  health.addToServer({
    addService(service, impl) {
      definition = service as unknown as grpc.ServiceDefinition;
      implementation = impl as unknown as grpc.UntypedServiceImplementation;
    },
  });
  if (definition === undefined || implementation === undefined) throw new Error('grpc-health-check did not provide its service');

  return {
    definition,
    implementation: pruneEmptyWatchers(health, implementation),
    setServingStatus(service: string, status: boolean | ServingStatus): void {
      if (typeof service !== 'string') throw new InvalidArgumentError('service must be a string', 'service');
      if (DERIVED.has(service)) throw new InvalidArgumentError(`service ${JSON.stringify(service)} follows the status registry and cannot be set`, 'service');
      const value: ServingStatus = status === true ? 'SERVING' : status === false ? 'NOT_SERVING' : status;
      if (value !== 'SERVING' && value !== 'NOT_SERVING' && value !== 'UNKNOWN') throw new InvalidArgumentError(`invalid serving status ${JSON.stringify(status)}`, 'status');
      put(service, value);
    },
    shutdown: onceShutdown('gRPC health', () => {
      unsubscribe?.();
      unsubscribe = undefined;
      for (const service of current.keys()) put(service, 'NOT_SERVING');
    }),
  };
}
