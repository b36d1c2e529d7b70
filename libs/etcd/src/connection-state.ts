import { isRecoverableError } from 'etcd3';
import { ETCD_STATES, type EtcdMetrics } from './metrics.js';
import type { EtcdState } from './types.js';
import type { Logger } from '@sluice/telemetry/logger';

/** Whether `err` says that etcd could not be reached (rather than that it answered no). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (isRecoverableError(err)) return true;
  return /deadline exceeded|unavailable|ECONNREFUSED|No connection established/i.test(err.message);
}

/**
 * The client's state, fed by every operation: a success means connected,
 * a connection error means unavailable. Listeners and the state gauge follow.
 */
export class ConnectionState {
  private current: EtcdState = 'connecting';
  private readonly listeners = new Set<(state: EtcdState, previous: EtcdState) => void>();

  constructor(private readonly metrics: EtcdMetrics, private readonly logger: Logger | undefined, private readonly endpoints: readonly string[]) {
    this.publish();
  }

  get(): EtcdState {
    return this.current;
  }

  onChange(cb: (state: EtcdState, previous: EtcdState) => void): () => void {
    this.listeners.add(cb);
    return () => { this.listeners.delete(cb); };
  }

  ok(): void {
    if (this.current === 'connected') return;
    if (this.current === 'unavailable') {
      this.metrics.reconnects.inc();
      this.logger?.info('etcd reachable again', { endpoints: this.endpoints });
    } else {
      this.logger?.info('etcd connected', { endpoints: this.endpoints });
    }
    this.set('connected');
  }

  /** Records a failure of `operation`; only a connection error changes the state. */
  failed(operation: string, err: unknown): void {
    this.metrics.errors.inc({ operation });
    if (!isConnectionError(err) || this.current === 'unavailable') return;
    this.logger?.warn('etcd unavailable; retrying with backoff, enforcing what is known', {
      endpoints: this.endpoints, operation, error: err instanceof Error ? err.message : String(err),
    });
    this.set('unavailable');
  }

  private set(state: EtcdState): void {
    const previous = this.current;
    this.current = state;
    this.publish();
    for (const cb of this.listeners) {
      try {
        cb(state, previous);
      } catch (err) {
        this.logger?.error('etcd state listener failed', { error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  private publish(): void {
    for (const s of ETCD_STATES) this.metrics.state.set({ state: s }, s === this.current ? 1 : 0);
  }
}
