import type { Lifecycle, ShutdownOptions } from '@sluice/lifecycle';
/** Where the client stands with etcd: not reached yet, reached, or lost (retrying with backoff). */
export type EtcdState = 'connecting' | 'connected' | 'unavailable';

/**
 * Receives the keys under a watched prefix, level-triggered: `reset` hands
 * the whole current content (after the first get and after every resync),
 * then `put` and `delete` each change in order. A handler that throws is
 * logged; the watch goes on.
 */
export interface WatchHandler {
  /** `revision`: the revision of the read, and the one at which each key was last modified. */
  reset(entries: Map<string, string>, revision?: WatchRevisions): void;
  /** `revision`: etcd's revision of this change (its mod revision). */
  put(key: string, value: string, revision?: string): void;
  delete(key: string, revision?: string): void;
}

/** Revisions of a full read: the read's own, and each key's last modification. */
export interface WatchRevisions {
  revision: string;
  modRevisions: Map<string, string>;
}

/** One write of a transaction. */
export type EtcdTxnOp = { put: string; value: string } | { delete: string };

/** A prefix watch; from the moment `shutdown` is called no handler call follows. */
export type PrefixWatch = Lifecycle;

/**
 * Keys kept on this process's lease. The desired content is remembered: after
 * the lease was lost (etcd away longer than its TTL) a new lease is granted and
 * every key is written again. A write that fails rejects, and the key is still
 * written when etcd returns.
 */
export interface LeasedKeys {
  /** Writes `value` at `key` on the lease; nothing is sent when the key already holds it on the current lease. */
  put(key: string, value: string): Promise<void>;
  /** Forgets `key` and deletes it. */
  delete(key: string): Promise<void>;
  /** Forgets every leased key under `prefix` and deletes the whole range. */
  deletePrefix(prefix: string): Promise<void>;
  /** The keys this process keeps on its lease (desired, written or not), sorted. */
  keys(): string[];
}

/** The process's etcd client. */
export interface SluiceEtcd extends Lifecycle {
  /** `etcd.namespace`: keys are built with it (libs/policies published.ts); it is not added here. */
  readonly namespace: string;
  /** Begins the session (lease, retries). Never fails because etcd is away. */
  start(): Promise<void>;
  /** Stops watches and retries, revokes the lease (its keys go at once; not with revokeLeaseOnShutdown false), closes the connections. */
  shutdown(opts?: ShutdownOptions): Promise<void>;
  state(): EtcdState;
  /** Called on every state change; answers a function that removes the listener. */
  onStateChange(cb: (state: EtcdState, previous: EtcdState) => void): () => void;
  readonly leased: LeasedKeys;
  put(key: string, value: string): Promise<void>;
  /** The value at `key`, or undefined when there is none. */
  get(key: string): Promise<string | undefined>;
  /** Every key under `prefix` with its value. */
  getPrefix(prefix: string): Promise<Map<string, string>>;
  delete(key: string): Promise<void>;
  /**
   * Applies every op in one etcd transaction: watchers see all of them at one revision, or none.
   * Answers that revision. etcd refuses more ops than its `--max-txn-ops` (128 by default).
   */
  commit(ops: readonly EtcdTxnOp[]): Promise<string>;
  /** The value at `key` with the revision it was last modified at ('0' when there is no key). */
  getWithRevision(key: string): Promise<{ value: string | undefined; modRevision: string }>;
  /**
   * `commit`, only when `key` was last modified at `modRevision` ('0': the key does not exist);
   * answers the new revision, or undefined when someone wrote `key` since (nothing is applied).
   */
  commitIf(key: string, modRevision: string, ops: readonly EtcdTxnOp[]): Promise<string | undefined>;
  /** Full get, then a watch from that revision; on any break a resync (full get, `reset`) with backoff. */
  watchPrefix(prefix: string, handler: WatchHandler): PrefixWatch;
}
