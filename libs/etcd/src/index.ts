// @sluice/etcd: the etcd client, lease keeper and resyncing prefix watcher.
export { createEtcd, type CreateEtcdOptions } from './sluice-etcd.js';
export type { SluiceEtcd, EtcdState, LeasedKeys, WatchHandler, WatchRevisions, EtcdTxnOp, PrefixWatch } from './types.js';
export { EtcdUnavailableError } from './errors.js';
export { etcdReadinessJob, etcdReadinessStatus, type EtcdReadinessOptions } from './readiness.js';
export { resolveEtcdOptions, type ResolvedEtcdOptions } from './client-options.js';
