import { onceShutdown } from '@sluice/lifecycle';
import { Backoff, type BackoffConfig } from '@sluice/clients';
import type { EtcdConfig } from '@sluice/config';
import { Etcd3 } from 'etcd3';
import type { Registry } from 'prom-client';
import { resolveEtcdOptions } from './client-options.js';
import { ConnectionState } from './connection-state.js';
import { EtcdUnavailableError } from './errors.js';
import { LeaseKeeper } from './leased-keys.js';
import { etcdMetrics } from './metrics.js';
import { PrefixWatcher } from './prefix-watcher.js';
import type { EtcdState, EtcdTxnOp, LeasedKeys, PrefixWatch, SluiceEtcd, WatchHandler } from './types.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface CreateEtcdOptions {
  logger?: Logger;
  registry?: Registry;
  /** Deadline of one etcd call. Default 5 s. */
  callTimeoutMs?: number;
  /** Retry delays; a key left out takes its default: 200 ms growing ×1.6 to 5 s, ±20 %. */
  backoff?: Partial<BackoffConfig>;
  /** How long a leased put waits for the first lease before it rejects. Default 5 s. */
  leaseWaitMs?: number;
  /**
   * Whether shutdown revokes the lease, so etcd deletes its keys at once (default true: an agent
   * leaving takes its peer key with it). false leaves them until the lease's TTL runs out: a
   * restarting controller's successor puts the same keys on its own lease, and their watchers never
   * see them deleted.
   */
  revokeLeaseOnShutdown?: boolean;
}

const ETCD_RETRY_BACKOFF: BackoffConfig = { base_delay: '200ms', multiplier: 1.6, jitter: 0.2, max_delay: '5s' };

function backoffOf(opts: CreateEtcdOptions): Backoff {
  return new Backoff({ ...ETCD_RETRY_BACKOFF, ...opts.backoff });
}

function requestOps(ops: readonly EtcdTxnOp[]): { request_put?: { key: Buffer; value: Buffer }; request_delete_range?: { key: Buffer } }[] {
  return ops.map((o) => ('put' in o
    ? { request_put: { key: Buffer.from(o.put), value: Buffer.from(o.value) } }
    : { request_delete_range: { key: Buffer.from(o.delete) } }));
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The process's etcd client from `etcd.*`. Nothing is contacted before
 * `start`; etcd being away never throws out of start and never exits the
 * process: the lease loop and every watch retry with backoff and catch up
 * when it returns. Throws an InvalidArgumentError for unusable settings
 * (no endpoints, a lease TTL under 1 s, unreadable TLS files).
 */
export function createEtcd(config: EtcdConfig, opts: CreateEtcdOptions = {}): SluiceEtcd {
  return new EtcdClient(config, opts);
}

class EtcdClient implements SluiceEtcd {
  readonly namespace: string;
  readonly leased: LeasedKeys;
  private readonly client: Etcd3;
  private readonly connection: ConnectionState;
  private readonly keeper: LeaseKeeper;
  private readonly watches = new Set<PrefixWatcher>();
  private readonly metrics;
  private closed = false;

  constructor(config: EtcdConfig, private readonly opts: CreateEtcdOptions) {
    const callTimeoutMs = opts.callTimeoutMs ?? 5000;
    const resolved = resolveEtcdOptions(config, callTimeoutMs);
    for (const u of resolved.unsupported) opts.logger?.warn('etcd setting not supported; ignored', { setting: u });
    this.namespace = config.namespace;
    this.metrics = etcdMetrics(opts.registry);
    this.client = new Etcd3(resolved.client);
    this.connection = new ConnectionState(this.metrics, opts.logger, config.endpoints);
    this.keeper = new LeaseKeeper({
      client: this.client,
      ttlSeconds: resolved.leaseTtlSeconds,
      state: this.connection,
      metrics: this.metrics,
      ...(opts.logger !== undefined ? { logger: opts.logger } : {}),
      backoff: backoffOf(opts),
      callTimeoutMs,
      leaseWaitMs: opts.leaseWaitMs ?? 5000,
    });
    this.leased = this.keeper;
  }

  start(): Promise<void> {
    if (!this.closed) this.keeper.start();
    return Promise.resolve();
  }

  readonly shutdown = onceShutdown('etcd', async () => {
    this.closed = true;
    const watches = [...this.watches];
    this.watches.clear();
    await Promise.all(watches.map((w) => w.shutdown()));
    await this.keeper.shutdown({ revoke: this.opts.revokeLeaseOnShutdown ?? true });
    this.client.close();
  });

  state(): EtcdState {
    return this.connection.get();
  }

  onStateChange(cb: (state: EtcdState, previous: EtcdState) => void): () => void {
    return this.connection.onChange(cb);
  }

  async put(key: string, value: string): Promise<void> {
    await this.op('put', () => this.client.put(key).value(value).exec());
    this.metrics.puts.inc({ kind: 'plain' });
  }

  async get(key: string): Promise<string | undefined> {
    const v = await this.op('get', () => this.client.get(key).string());
    return v ?? undefined;
  }

  async getPrefix(prefix: string): Promise<Map<string, string>> {
    const res = await this.op('get', () => this.client.getAll().prefix(prefix).exec());
    const out = new Map<string, string>();
    for (const kv of res.kvs) out.set(kv.key.toString(), kv.value.toString());
    return out;
  }

  async delete(key: string): Promise<void> {
    await this.op('delete', () => this.client.delete().key(key).exec());
  }

  async commit(ops: readonly EtcdTxnOp[]): Promise<string> {
    const res = await this.op('txn', () => this.client.kv.txn({ compare: [], success: requestOps(ops), failure: [] }));
    this.metrics.puts.inc({ kind: 'txn' });
    return String(res.header.revision);
  }

  async getWithRevision(key: string): Promise<{ value: string | undefined; modRevision: string }> {
    const res = await this.op('get', () => this.client.get(key).exec());
    const kv = res.kvs[0];
    return kv === undefined ? { value: undefined, modRevision: '0' } : { value: kv.value.toString(), modRevision: String(kv.mod_revision) };
  }

  async commitIf(key: string, modRevision: string, ops: readonly EtcdTxnOp[]): Promise<string | undefined> {
    const compare = [{ key: Buffer.from(key), target: 'Mod' as const, result: 'Equal' as const, mod_revision: modRevision }];
    const res = await this.op('txn', () => this.client.kv.txn({ compare, success: requestOps(ops), failure: [] }));
    if (!res.succeeded) return undefined;
    this.metrics.puts.inc({ kind: 'txn' });
    return String(res.header.revision);
  }

  watchPrefix(prefix: string, handler: WatchHandler): PrefixWatch {
    if (this.closed) return { shutdown: async () => undefined };
    const w = new PrefixWatcher({
      client: this.client, prefix, handler, state: this.connection, metrics: this.metrics,
      ...(this.opts.logger !== undefined ? { logger: this.opts.logger } : {}),
      backoff: backoffOf(this.opts),
    });
    this.watches.add(w);
    return {
      shutdown: (opts) => {
        this.watches.delete(w);
        return w.shutdown(opts);
      },
    };
  }

  /** Runs one call, feeding the state; a failure rejects with an EtcdUnavailableError or etcd's own error. */
  private async op<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new EtcdUnavailableError(`etcd client is shut down (${operation})`);
    try {
      const r = await fn();
      this.connection.ok();
      return r;
    } catch (err) {
      this.connection.failed(operation, err);
      throw new EtcdUnavailableError(`etcd ${operation} failed: ${message(err)}`, err);
    }
  }
}
