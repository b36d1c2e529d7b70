import type { Job } from '@sluice/jobs';
import type { SluiceEtcd } from './types.js';

/**
 * A readiness job that reports the etcd state: healthy while connected,
 * unhealthy (naming the state) otherwise. Register it under readiness only:
 * liveness never fails because of etcd, the process keeps working from what it knows.
 */
export function etcdReadinessJob(etcd: SluiceEtcd, name = 'etcd'): Job {
  return {
    name,
    run() {
      const state = etcd.state();
      return state === 'connected'
        ? { healthy: true, message: 'etcd connected', details: { state } }
        : { healthy: false, message: `etcd ${state}: retrying with backoff`, details: { state } };
    },
  };
}
