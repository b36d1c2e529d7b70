import type { Job } from '@sluice/jobs';
import type { EtcdState, SluiceEtcd } from './types.js';

export interface EtcdReadinessOptions {
  /** Job name under readiness; default `etcd`. */
  name?: string;
  /**
   * Report unhealthy while etcd is not connected. Default false: a process
   * that keeps working from what it knows (an agent enforcing the last
   * policies) must not be taken out of service because etcd is away, so the
   * check stays healthy and says the state in its message and details.
   */
  failWhenUnavailable?: boolean;
}

/** What the readiness check says in `state`. */
export function etcdReadinessStatus(state: EtcdState, opts: EtcdReadinessOptions = {}): { healthy: boolean; message: string; details: { state: EtcdState } } {
  if (state === 'connected') return { healthy: true, message: 'etcd connected', details: { state } };
  return {
    healthy: opts.failWhenUnavailable !== true,
    message: `etcd ${state}: retrying with backoff; working from the last known state`,
    details: { state },
  };
}

/**
 * A readiness job that shows the etcd state (`details.state`, and the
 * message). Register it under readiness only: liveness never fails because
 * of etcd. Between its runs, `etcdReadinessStatus` gives the same answer for
 * a state change.
 */
export function etcdReadinessJob(etcd: SluiceEtcd, opts: EtcdReadinessOptions = {}): Job {
  return { name: opts.name ?? 'etcd', run: () => etcdReadinessStatus(etcd.state(), opts) };
}
