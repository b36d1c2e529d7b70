/**
 * What the controller uses of @sluice/etcd's SluiceEtcd (written as an interface so
 * that the controller's logic is tested with an in-memory stand-in as well as real etcd).
 */
export type EtcdState = 'connecting' | 'connected' | 'unavailable';

export interface PrefixWatchHandler {
  /** The full state under the prefix (after a get, on start and after every resync). */
  reset(entries: Map<string, string>): void;
  put(key: string, value: string): void;
  delete(key: string): void;
}

export interface ControllerEtcd {
  readonly namespace: string;
  state(): EtcdState;
  onStateChange(cb: (state: EtcdState) => void): unknown;
  /** Keys on this process's lease, put back after the lease is lost or etcd returns. */
  readonly leased: {
    put(key: string, value: string): Promise<void>;
    delete(key: string): Promise<void>;
  };
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  watchPrefix(prefix: string, handler: PrefixWatchHandler): { stop(): void };
}
