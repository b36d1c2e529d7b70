import { Counter, Gauge, type Registry } from 'prom-client';
import type { EtcdState } from './types.js';

export interface EtcdMetrics {
  /** 1 for the current state, 0 for the others. */
  state: Gauge<'state'>;
  reconnects: Counter<string>;
  puts: Counter<'kind'>;
  watchResyncs: Counter<'prefix'>;
  leaseGrants: Counter<string>;
  errors: Counter<'operation'>;
}

function metric<T>(registry: Registry | undefined, name: string, make: (registers: Registry[]) => T): T {
  const existing = registry?.getSingleMetric(name);
  return existing !== undefined ? existing as T : make(registry === undefined ? [] : [registry]);
}

/** The etcd client's metrics in `registry` (reused when already there; unregistered without a registry). */
export function etcdMetrics(registry: Registry | undefined): EtcdMetrics {
  return {
    state: metric(registry, 'etcd_client_state', (registers) => new Gauge({ name: 'etcd_client_state', help: 'State of the etcd client: 1 for the current one of connecting, connected, unavailable.', labelNames: ['state'], registers })),
    reconnects: metric(registry, 'etcd_client_reconnects_total', (registers) => new Counter({ name: 'etcd_client_reconnects_total', help: 'Times etcd was reached again after it had been unavailable.', registers })),
    puts: metric(registry, 'etcd_client_puts_total', (registers) => new Counter({ name: 'etcd_client_puts_total', help: 'Keys written to etcd, by kind: leased, plain, or txn (one per transaction).', labelNames: ['kind'], registers })),
    watchResyncs: metric(registry, 'etcd_client_watch_resyncs_total', (registers) => new Counter({ name: 'etcd_client_watch_resyncs_total', help: 'Full reads of a watched prefix (the first one and one after every break of the watch).', labelNames: ['prefix'], registers })),
    leaseGrants: metric(registry, 'etcd_client_lease_grants_total', (registers) => new Counter({ name: 'etcd_client_lease_grants_total', help: 'Leases granted to this process (more than one: the lease expired while etcd was away).', registers })),
    errors: metric(registry, 'etcd_client_errors_total', (registers) => new Counter({ name: 'etcd_client_errors_total', help: 'Failed etcd operations, by operation.', labelNames: ['operation'], registers })),
  };
}

export const ETCD_STATES: readonly EtcdState[] = ['connecting', 'connected', 'unavailable'];
