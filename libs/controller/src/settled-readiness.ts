import type { Job } from '@sluice/jobs';
import type { ControllerEtcd } from './controller-etcd.js';

/** Longest a readiness run waits for a first connection attempt to settle. */
export const SETTLE_WAIT_MS = 3000;

/**
 * Wraps etcd's readiness job so that a run made while the client is still `connecting`
 * (the first run, at start) waits up to `waitMs` for the first outcome instead of
 * reporting `connecting` until the next period (10 s by default).
 */
export function settledReadinessJob(etcd: Pick<ControllerEtcd, 'state' | 'onStateChange'>, job: Job, waitMs = SETTLE_WAIT_MS): Job {
  return {
    name: job.name,
    async run(signal) {
      if (etcd.state() === 'connecting') {
        await new Promise<void>((resolve) => {
          const listener: { off?: unknown } = {};
          const done = (): void => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            if (typeof listener.off === 'function') (listener.off as () => void)();
            resolve();
          };
          const timer = setTimeout(done, waitMs);
          signal.addEventListener('abort', done, { once: true });
          listener.off = etcd.onStateChange(() => done());
        });
      }
      return job.run(signal);
    },
  };
}
