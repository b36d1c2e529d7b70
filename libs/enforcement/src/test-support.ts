import type { PrefixWatch, WatchHandler } from '@sluice/etcd';

/** An in-memory stand-in for the etcd watches: a key-value map that calls the handlers of matching prefixes. */
export class FakeEtcd {
  readonly namespace = 'sluice';
  readonly kv = new Map<string, string>();
  private readonly watches = new Set<{ prefix: string; handler: WatchHandler }>();
  watchPrefix(prefix: string, handler: WatchHandler): PrefixWatch {
    const w = { prefix, handler };
    this.watches.add(w);
    handler.reset(new Map([...this.kv].filter(([k]) => k.startsWith(prefix))));
    return { shutdown: async () => { this.watches.delete(w); } };
  }
  put(key: string, value: string): void {
    this.kv.set(key, value);
    for (const w of this.watches) if (key.startsWith(w.prefix)) w.handler.put(key, value);
  }
  delete(key: string): void {
    this.kv.delete(key);
    for (const w of this.watches) if (key.startsWith(w.prefix)) w.handler.delete(key);
  }
  /** The prefixes watched now, one entry a watch. */
  watched(): string[] {
    return [...this.watches].map((w) => w.prefix);
  }
  /** A resync: every watch gets the whole content again. */
  resync(): void {
    for (const w of this.watches) w.handler.reset(new Map([...this.kv].filter(([k]) => k.startsWith(w.prefix))));
  }
}
