import { boundedShutdown, DEFAULT_SHUTDOWN_DEADLINE_MS, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { Backoff } from '@sluice/clients';
import type { Etcd3 } from 'etcd3';
import type { ConnectionState } from './connection-state.js';
import { EtcdUnavailableError } from './errors.js';
import type { EtcdMetrics } from './metrics.js';
import type { LeasedKeys } from './types.js';
import { WakeableSleep } from './wakeable-sleep.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface LeaseKeeperOptions {
  client: Etcd3;
  ttlSeconds: number;
  state: ConnectionState;
  metrics: EtcdMetrics;
  logger?: Logger;
  backoff: Backoff;
  /** Deadline of one keepalive round trip. */
  callTimeoutMs: number;
  /** How long a put waits for a lease before it rejects (the key is still written later). */
  leaseWaitMs: number;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * This process's lease and the keys on it. One loop grants the lease, keeps
 * it alive every TTL/3, and writes what is desired but not yet on the current
 * lease (level-triggered: after a failure, a lost lease or etcd's return it
 * simply writes the difference again). Failures back off; nothing here ever
 * exits the process. All writes go through one queue, so the keys end up
 * holding the last value asked for.
 */
export class LeaseKeeper implements LeasedKeys, Lifecycle {
  private leaseId: string | undefined;
  private readonly desired = new Map<string, string>();
  /** What the current lease holds, as far as this process wrote it. */
  private readonly written = new Map<string, string>();
  private readonly pendingDeletes = new Set<string>();
  private readonly pendingPrefixDeletes = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly sleeper = new WakeableSleep();
  private running = false;
  private stopping: Promise<void> | undefined;
  private loopDone: Promise<void> = Promise.resolve();
  private leaseWaiters = new Set<() => void>();

  constructor(private readonly o: LeaseKeeperOptions) {
    // Losing etcd anywhere (a watch, a write) ends the long sleep between keepalives:
    // the loop then probes with backoff and finds out when etcd is back.
    o.state.onChange((state) => { if (state === 'unavailable') this.sleeper.kick(); });
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = undefined;
    this.loopDone = this.loop();
  }

  /**
   * Stops the loop and revokes the lease (its keys are deleted by etcd at once); with `revoke: false`
   * the lease is left to expire with its TTL, and its keys with it unless another lease takes them.
   */
  shutdown(opts: ShutdownOptions & { revoke?: boolean } = {}): Promise<void> {
    this.stopping ??= boundedShutdown('etcd lease', () => this.stopAll(opts.revoke !== false), opts.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS);
    return this.stopping;
  }

  private async stopAll(revoke: boolean): Promise<void> {
    this.running = false;
    this.sleeper.cancel();
    for (const w of this.leaseWaiters) w();
    // A call under way (etcd away: up to its deadline) is not waited for past a moment; closing the client ends it.
    await Promise.race([Promise.all([this.loopDone, this.queue.catch(() => undefined)]), new Promise((r) => setTimeout(r, 250).unref())]);
    const id = this.leaseId;
    this.leaseId = undefined;
    if (id === undefined) return;
    if (!revoke) {
      this.o.logger?.info('etcd lease left to expire with its TTL; its keys stay until then', { lease: id });
      return;
    }
    try {
      await this.o.client.leaseClient.leaseRevoke({ ID: id }, { deadline: Date.now() + Math.min(1000, this.o.callTimeoutMs) });
      this.o.logger?.info('etcd lease revoked', { lease: id });
    } catch (err) {
      this.o.logger?.warn('etcd lease not revoked; its keys expire with its TTL', { lease: id, error: message(err) });
    }
  }

  keys(): string[] {
    return [...this.desired.keys()].sort();
  }

  /** The current lease's ID (undefined while none is granted). */
  get lease(): string | undefined {
    return this.leaseId;
  }

  async put(key: string, value: string): Promise<void> {
    this.desired.set(key, value);
    this.pendingDeletes.delete(key);
    if (this.leaseId !== undefined && this.written.get(key) === value) return;
    if (this.leaseId === undefined) await this.waitForLease();
    if (this.leaseId === undefined) {
      throw new EtcdUnavailableError(`etcd unavailable: ${key} is kept and written when etcd returns`);
    }
    await this.serial(() => this.writeOne(key));
  }

  async delete(key: string): Promise<void> {
    this.desired.delete(key);
    this.written.delete(key);
    this.pendingDeletes.add(key);
    await this.serial(() => this.deleteOne(key));
  }

  async deletePrefix(prefix: string): Promise<void> {
    for (const k of [...this.desired.keys()]) {
      if (k.startsWith(prefix)) {
        this.desired.delete(k);
        this.written.delete(k);
        this.pendingDeletes.delete(k);
      }
    }
    this.pendingPrefixDeletes.add(prefix);
    await this.serial(() => this.deletePrefixOne(prefix));
  }

  /** Runs `fn` after every write queued before it; a failure kicks the loop into retrying. */
  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run.catch((err: unknown) => {
      throw err instanceof EtcdUnavailableError ? err : new EtcdUnavailableError(`etcd write failed: ${message(err)}`, err);
    });
  }

  private async writeOne(key: string): Promise<void> {
    const value = this.desired.get(key);
    const id = this.leaseId;
    if (value === undefined || id === undefined || this.written.get(key) === value) return;
    try {
      await this.o.client.put(key).value(value).lease(id).exec();
    } catch (err) {
      this.o.state.failed('leased_put', err);
      throw err;
    }
    this.o.state.ok();
    this.o.metrics.puts.inc({ kind: 'leased' });
    // The lease may have changed while the write was under way: then it is written again on the new one.
    if (this.leaseId === id && this.desired.get(key) === value) this.written.set(key, value);
  }

  private async deleteOne(key: string): Promise<void> {
    if (this.desired.has(key)) {
      this.pendingDeletes.delete(key);
      return;
    }
    try {
      await this.o.client.delete().key(key).exec();
    } catch (err) {
      this.o.state.failed('leased_delete', err);
      throw err;
    }
    this.o.state.ok();
    this.pendingDeletes.delete(key);
  }

  private async deletePrefixOne(prefix: string): Promise<void> {
    try {
      await this.o.client.delete().prefix(prefix).exec();
    } catch (err) {
      this.o.state.failed('leased_delete', err);
      throw err;
    }
    this.o.state.ok();
    this.pendingPrefixDeletes.delete(prefix);
    // A key under the prefix desired again since: write it back.
    for (const k of this.desired.keys()) if (k.startsWith(prefix)) this.written.delete(k);
  }

  private waitForLease(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.leaseWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.o.leaseWaitMs);
      this.leaseWaiters.add(done);
      // At start-up, ask for the lease now rather than after the first backoff.
      if (this.o.state.get() === 'connecting') this.sleeper.kick();
    });
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let delay: number;
      try {
        if (this.leaseId === undefined) await this.grant();
        else if (!(await this.keepAlive(this.leaseId))) continue; // expired: grant a new one at once
        await this.flush();
        this.o.backoff.reset();
        delay = (this.o.ttlSeconds * 1000) / 3;
      } catch (err) {
        this.o.state.failed('lease', err);
        delay = this.o.backoff.next();
        this.o.logger?.debug('etcd lease loop: retrying', { delayMs: Math.round(delay), error: message(err) });
      }
      if (this.running) await this.sleeper.sleep(delay);
    }
  }

  private async grant(): Promise<void> {
    const res = await this.o.client.leaseClient.leaseGrant({ TTL: this.o.ttlSeconds, ID: 0 }, { deadline: Date.now() + this.o.callTimeoutMs });
    this.o.state.ok();
    if (!this.running) {
      await this.o.client.leaseClient.leaseRevoke({ ID: res.ID }).catch(() => undefined);
      return;
    }
    this.leaseId = res.ID;
    this.written.clear();
    this.o.metrics.leaseGrants.inc();
    this.o.logger?.info('etcd lease granted', { lease: res.ID, ttlSeconds: this.o.ttlSeconds, keys: this.desired.size });
    for (const w of [...this.leaseWaiters]) w();
  }

  /** One keepalive round trip; false when etcd says the lease is gone (the keys went with it). */
  private async keepAlive(id: string): Promise<boolean> {
    const stream = await this.o.client.leaseClient.leaseKeepAlive({ deadline: Date.now() + this.o.callTimeoutMs });
    let ttl: number;
    try {
      ttl = await new Promise<number>((resolve, reject) => {
        stream.on('data', (res) => resolve(Number(res.TTL)));
        stream.on('error', reject);
        stream.on('end', () => reject(new Error('etcd keepalive stream ended: unavailable')));
        stream.write({ ID: id });
      });
    } finally {
      stream.end();
    }
    this.o.state.ok();
    if (ttl > 0) return true;
    this.o.logger?.warn('etcd lease expired (etcd was away longer than its TTL); granting a new one and writing every key again', { lease: id, keys: this.desired.size });
    this.leaseId = undefined;
    this.written.clear();
    return false;
  }

  /** Writes the desired keys the current lease does not hold, and the deletes that failed before. */
  private async flush(): Promise<void> {
    for (const prefix of [...this.pendingPrefixDeletes]) await this.serial(() => this.deletePrefixOne(prefix));
    for (const key of [...this.pendingDeletes]) await this.serial(() => this.deleteOne(key));
    for (const [key, value] of this.desired) {
      if (this.written.get(key) !== value) await this.serial(() => this.writeOne(key));
    }
  }
}
