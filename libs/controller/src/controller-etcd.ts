/**
 * What the controller uses of @sluice/etcd's SluiceEtcd (written as an interface so
 * that the controller's logic is tested with an in-memory stand-in as well as real etcd).
 */
export type EtcdState = 'connecting' | 'connected' | 'unavailable';

/** Revisions of a full read: the read's own, and each key's last modification. */
export interface WatchRevisions {
  revision: string;
  modRevisions: Map<string, string>;
}

export interface PrefixWatchHandler {
  /** The full state under the prefix (after a get, on start and after every resync). */
  reset(entries: Map<string, string>, revision?: WatchRevisions): void;
  put(key: string, value: string, revision?: string): void;
  delete(key: string, revision?: string): void;
}

/** One write of a transaction. */
export type TxnOp = { put: string; value: string } | { delete: string };

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
  /** All ops in one transaction (watchers see them at one revision); answers that revision. */
  commit(ops: readonly TxnOp[]): Promise<string>;
  /** The value at `key` with the revision it was last modified at ('0' when there is no key). */
  getWithRevision(key: string): Promise<{ value: string | undefined; modRevision: string }>;
  /** `commit` only when `key` is still at `modRevision`; undefined when it is not (nothing applied). */
  commitIf(key: string, modRevision: string, ops: readonly TxnOp[]): Promise<string | undefined>;
  watchPrefix(prefix: string, handler: PrefixWatchHandler): { shutdown(): Promise<void> };
}
