import type * as grpc from '@grpc/grpc-js';
import type { HealthImplementation } from 'grpc-health-check';

type WatchCall = grpc.ServerWritableStream<{ service: string }, unknown>;

/**
 * grpc-health-check keeps one watcher set per service name a Watch call asks
 * for and, when the call ends, empties the set but keeps it: Watch calls under
 * ever new names would grow that map without bound. This wraps the Watch
 * handler so an emptied set is dropped when its last call ends.
 */
export function pruneEmptyWatchers(health: HealthImplementation, implementation: grpc.UntypedServiceImplementation): grpc.UntypedServiceImplementation {
  const watchers = (health as unknown as { watchers?: unknown }).watchers;
  const watch = implementation.watch as ((call: WatchCall) => void) | undefined;
  if (!(watchers instanceof Map) || typeof watch !== 'function') {
    throw new Error('grpc-health-check no longer keeps its Watch watchers as expected');
  }
  return {
    ...implementation,
    watch: (call: WatchCall) => {
      watch(call);
      // Registered after the library's own 'cancelled' listener, so the set is already emptied.
      call.once('cancelled', () => {
        const service = call.request.service;
        if ((watchers.get(service) as Set<unknown> | undefined)?.size === 0) watchers.delete(service);
      });
    },
  };
}
