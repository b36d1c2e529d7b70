// Generic storage of the test API server: objects keyed by (group/resource, namespace, name),
// one global resourceVersion counter, and a bounded history of changes that watches replay
// from. A watch or continue token older than the history window is 410 Gone, as on a real
// server after compaction; `expireHistory()` forces that for tests.

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  creationTimestamp: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  rv: number;
  /** `<group>/<resource>` (the core group is empty: `/pods`). */
  gr: string;
  type: ChangeType;
  object: KubeObject;
  /** The object before a MODIFIED change, for selector transitions. */
  old?: KubeObject;
}

export type ChangeListener = (c: Change) => void;

export class TooOldError extends Error {
  constructor(readonly requested: number, readonly oldest: number) {
    super(`too old resource version: ${requested} (${oldest})`);
  }
}

export class Store {
  private rv = 1;
  private readonly tables = new Map<string, Map<string, KubeObject>>();
  private history: Change[] = [];
  /** Changes at or below this resourceVersion are no longer in the history. */
  private compacted = 1;
  private readonly listeners = new Map<string, Set<ChangeListener>>();

  constructor(private readonly historyLimit = 10_000) {}

  currentRv(): number {
    return this.rv;
  }

  oldestWatchableRv(): number {
    return this.compacted;
  }

  private table(gr: string): Map<string, KubeObject> {
    let t = this.tables.get(gr);
    if (!t) {
      t = new Map();
      this.tables.set(gr, t);
    }
    return t;
  }

  private static key(namespace: string | undefined, name: string): string {
    return `${namespace ?? ''}/${name}`;
  }

  get(gr: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.tables.get(gr)?.get(Store.key(namespace, name));
  }

  /** Objects of `gr`, in `namespace` when given, ordered by namespace then name. */
  list(gr: string, namespace?: string): KubeObject[] {
    const out: KubeObject[] = [];
    for (const o of this.tables.get(gr)?.values() ?? []) if (namespace === undefined || o.metadata.namespace === namespace) out.push(o);
    return out.sort((a, b) => Store.key(a.metadata.namespace, a.metadata.name).localeCompare(Store.key(b.metadata.namespace, b.metadata.name)));
  }

  /** Stores `obj` (ADDED when new, else MODIFIED) under a new resourceVersion, which it sets. */
  put(gr: string, obj: KubeObject): KubeObject {
    const t = this.table(gr);
    const k = Store.key(obj.metadata.namespace, obj.metadata.name);
    const old = t.get(k);
    this.rv++;
    const stored: KubeObject = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.rv) } };
    t.set(k, stored);
    this.record({ rv: this.rv, gr, type: old ? 'MODIFIED' : 'ADDED', object: stored, old });
    return stored;
  }

  remove(gr: string, obj: KubeObject): KubeObject | undefined {
    const t = this.tables.get(gr);
    const k = Store.key(obj.metadata.namespace, obj.metadata.name);
    const old = t?.get(k);
    if (!t || !old) return undefined;
    t.delete(k);
    this.rv++;
    const gone: KubeObject = { ...old, metadata: { ...old.metadata, resourceVersion: String(this.rv) } };
    this.record({ rv: this.rv, gr, type: 'DELETED', object: gone });
    return gone;
  }

  private record(c: Change): void {
    this.history.push(c);
    if (this.history.length > this.historyLimit) {
      const dropped = this.history.splice(0, this.history.length - this.historyLimit);
      this.compacted = dropped[dropped.length - 1].rv;
    }
    for (const l of this.listeners.get(c.gr) ?? []) l(c);
  }

  /** The changes of `gr` after `rv`; throws TooOldError when some of them were compacted away. */
  changesSince(gr: string, rv: number): Change[] {
    if (rv < this.compacted) throw new TooOldError(rv, this.compacted + 1);
    return this.history.filter((c) => c.rv > rv && c.gr === gr);
  }

  subscribe(gr: string, l: ChangeListener): () => void {
    let set = this.listeners.get(gr);
    if (!set) {
      set = new Set();
      this.listeners.set(gr, set);
    }
    set.add(l);
    return () => set.delete(l);
  }

  /** Forgets every change so far and moves the resourceVersion on: a watch or continue token from any earlier resourceVersion gets 410. */
  expireHistory(): void {
    this.history = [];
    this.rv++;
    this.compacted = this.rv;
  }
}
