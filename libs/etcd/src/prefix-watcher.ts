import { onceShutdown } from '@sluice/lifecycle';
import type { Backoff } from '@sluice/clients';
import type { Etcd3, IKeyValue, Watcher } from 'etcd3';
import type { ConnectionState } from './connection-state.js';
import type { EtcdMetrics } from './metrics.js';
import type { PrefixWatch, WatchHandler } from './types.js';
import { WakeableSleep } from './wakeable-sleep.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface PrefixWatcherOptions {
  client: Etcd3;
  prefix: string;
  handler: WatchHandler;
  state: ConnectionState;
  metrics: EtcdMetrics;
  logger?: Logger;
  backoff: Backoff;
}

/**
 * While etcd is unavailable a watcher retries this many times more slowly: the lease loop probes
 * with the plain backoff, and its success (the state turning connected) wakes every watcher at once.
 * Each watcher probing on its own made a new connection attempt per watcher and retry (an agent
 * without etcd redialled several times a second). The slower retry remains for a client whose
 * lease loop does not run.
 */
export const UNAVAILABLE_SLOWDOWN = 6;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Level-triggered watch of one prefix: a full get handed to `reset`, then a
 * watch from the next revision passing each put and delete on. Any break
 * (etcd gone, the stream ended, the watch cancelled by compaction) leads to
 * a new full get and `reset`, after a backoff (UNAVAILABLE_SLOWDOWN times
 * longer while etcd is unavailable, ended when it is reached again); the
 * handler never sees a gap.
 */
export class PrefixWatcher implements PrefixWatch {
  private stopped = false;
  private readonly sleeper = new WakeableSleep();
  private watcher: Watcher | undefined;
  private endWatch: (() => void) | undefined;
  readonly done: Promise<void>;

  private readonly unsubscribe: () => void;

  constructor(private readonly o: PrefixWatcherOptions) {
    // etcd reached again (by the lease loop or any call): resynchronise now rather than at the end of the slow retry.
    this.unsubscribe = o.state.onChange((state) => { if (state === 'connected') this.sleeper.interrupt(); });
    this.done = this.loop();
  }

  /** Stops watching (no handler call follows, from the call on) and waits for the watch loop to end. */
  readonly shutdown = onceShutdown('etcd prefix watch', async () => {
    this.stopped = true;
    this.unsubscribe();
    this.sleeper.cancel();
    this.endWatch?.();
    await this.done;
  });

  private call(what: 'reset' | 'put' | 'delete', fn: () => void): void {
    if (this.stopped) return;
    try {
      fn();
    } catch (err) {
      this.o.logger?.error('etcd watch handler failed', { prefix: this.o.prefix, call: what, error: message(err) });
    }
  }

  private async loop(): Promise<void> {
    let first = true;
    while (!this.stopped) {
      try {
        const res = await this.o.client.getAll().prefix(this.o.prefix).exec();
        this.o.state.ok();
        if (this.stopped) return;
        const entries = new Map<string, string>();
        const modRevisions = new Map<string, string>();
        for (const kv of res.kvs) {
          entries.set(kv.key.toString(), kv.value.toString());
          modRevisions.set(kv.key.toString(), String(kv.mod_revision));
        }
        this.o.metrics.watchResyncs.inc({ prefix: this.o.prefix });
        if (!first) this.o.logger?.info('etcd watch resynchronised', { prefix: this.o.prefix, keys: entries.size, revision: res.header.revision });
        first = false;
        this.call('reset', () => this.o.handler.reset(entries, { revision: String(res.header.revision), modRevisions }));
        const reason = await this.watchFrom((BigInt(res.header.revision) + 1n).toString());
        if (this.stopped) return;
        this.o.state.failed('watch', reason);
        this.o.logger?.debug('etcd watch broke; resynchronising', { prefix: this.o.prefix, error: message(reason) });
      } catch (err) {
        if (this.stopped) return;
        this.o.state.failed('watch_get', err);
      }
      const delay = this.o.backoff.next();
      await this.sleeper.sleep(this.o.state.get() === 'unavailable' ? delay * UNAVAILABLE_SLOWDOWN : delay);
    }
  }

  /** Watches from `revision` until the watch breaks (resolves with why) or stop. */
  private watchFrom(revision: string): Promise<unknown> {
    const w = this.o.client.watch().prefix(this.o.prefix).startRevision(revision).watcher();
    this.watcher = w;
    return new Promise<unknown>((resolve) => {
      let settled = false;
      const finish = (reason: unknown): void => {
        if (settled) return;
        settled = true;
        this.endWatch = undefined;
        this.watcher = undefined;
        w.removeAllListeners();
        // Keep a listener: etcd3 may still emit an error on a watcher being torn down.
        w.on('error', () => undefined);
        w.cancel().catch(() => undefined);
        resolve(reason);
      };
      this.endWatch = () => finish(undefined);
      w.on('connected', () => { this.o.state.ok(); this.o.backoff.reset(); });
      w.on('put', (kv: IKeyValue) => this.call('put', () => this.o.handler.put(kv.key.toString(), kv.value.toString(), String(kv.mod_revision))));
      w.on('delete', (kv: IKeyValue) => this.call('delete', () => this.o.handler.delete(kv.key.toString(), String(kv.mod_revision))));
      w.on('disconnected', (err: unknown) => finish(err ?? new Error('etcd watch disconnected: unavailable')));
      w.on('error', (err: unknown) => finish(err));
      w.on('end', () => finish(new Error('etcd watch ended')));
    });
  }
}
