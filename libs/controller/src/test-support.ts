import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ControllerEtcd, EtcdState, PrefixWatchHandler, TxnOp } from './controller-etcd.js';

/** An in-memory stand-in for @sluice/etcd: a key space, a state that can be turned to unavailable, and prefix watches. */
export class MemoryEtcd implements ControllerEtcd {
  readonly namespace = 'sluice';
  readonly data = new Map<string, string>();
  readonly leasedKeys = new Set<string>();
  writes = 0;
  /** etcd's revision: one more per put, delete and transaction. */
  revision = 1;
  /** Every transaction committed, as its ops (for tests of atomicity). */
  readonly txns: TxnOp[][] = [];
  /** Largest transaction etcd accepts (its --max-txn-ops). */
  maxTxnOps = 128;
  /** While true, watch events wait in `held` until `releaseEvents` (a slow watch). */
  holdEvents = false;
  private readonly held: (() => void)[] = [];
  private current: EtcdState = 'connected';
  private readonly listeners = new Set<(s: EtcdState) => void>();
  private readonly watches = new Set<{ prefix: string; handler: PrefixWatchHandler }>();

  readonly leased = {
    put: async (key: string, value: string): Promise<void> => { this.check(); this.leasedKeys.add(key); this.set(key, value); },
    delete: async (key: string): Promise<void> => { this.check(); this.leasedKeys.delete(key); this.remove(key); },
  };

  state(): EtcdState { return this.current; }
  onStateChange(cb: (s: EtcdState) => void): () => void { this.listeners.add(cb); return () => this.listeners.delete(cb); }
  setState(s: EtcdState): void {
    this.current = s;
    for (const l of this.listeners) l(s);
  }

  async put(key: string, value: string): Promise<void> { this.check(); this.set(key, value); }
  async delete(key: string): Promise<void> { this.check(); this.remove(key); }
  async commit(ops: readonly TxnOp[]): Promise<string> {
    this.check();
    if (ops.length > this.maxTxnOps) throw new Error('etcdserver: too many operations in txn request');
    this.txns.push([...ops]);
    this.revision++;
    for (const o of ops) {
      if ('put' in o) this.set(o.put, o.value, false);
      else this.remove(o.delete, false);
    }
    return String(this.revision);
  }
  /** Runs after each getWithRevision read (a test's other writer slips in there). */
  afterGet: (() => void) | undefined;
  async getWithRevision(key: string): Promise<{ value: string | undefined; modRevision: string }> {
    this.check();
    const out = { value: this.data.get(key), modRevision: this.modRevisions.get(key) ?? '0' };
    this.afterGet?.();
    return out;
  }
  async commitIf(key: string, modRevision: string, ops: readonly TxnOp[]): Promise<string | undefined> {
    this.check();
    if ((this.modRevisions.get(key) ?? '0') !== modRevision) return undefined;
    return this.commit(ops);
  }
  watchPrefix(prefix: string, handler: PrefixWatchHandler): { shutdown(): Promise<void> } {
    const w = { prefix, handler };
    this.watches.add(w);
    const entries = new Map([...this.data].filter(([k]) => k.startsWith(prefix)));
    handler.reset(entries, { revision: String(this.revision), modRevisions: new Map([...entries.keys()].map((k) => [k, this.modRevisions.get(k) ?? '0'])) });
    return { shutdown: async () => { this.watches.delete(w); } };
  }

  /** A full read handed to every watch again (as after a broken watch). */
  resync(): void {
    for (const w of this.watches) {
      const entries = new Map([...this.data].filter(([k]) => k.startsWith(w.prefix)));
      w.handler.reset(entries, { revision: String(this.revision), modRevisions: new Map([...entries.keys()].map((k) => [k, this.modRevisions.get(k) ?? '0'])) });
    }
  }

  /** An empty etcd in place of this one: no keys, history from revision 1. */
  wipe(): void {
    this.data.clear();
    this.modRevisions.clear();
    this.revision = 1;
  }

  /** Delivers the oldest held event; answers false when none was held. */
  releaseOne(): boolean {
    const e = this.held.shift();
    e?.();
    return e !== undefined;
  }

  releaseEvents(): void {
    this.holdEvents = false;
    for (const e of this.held.splice(0)) e();
  }

  private emit(e: () => void): void {
    if (this.holdEvents) this.held.push(e); else e();
  }

  under(prefix: string): Map<string, string> {
    return new Map([...this.data].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => a.localeCompare(b)));
  }

  private check(): void {
    if (this.current !== 'connected') throw new Error('etcd unavailable');
  }
  private readonly modRevisions = new Map<string, string>();
  private set(key: string, value: string, bump = true): void {
    this.writes++;
    if (bump) this.revision++;
    const rev = String(this.revision);
    this.data.set(key, value);
    this.modRevisions.set(key, rev);
    for (const w of this.watches) if (key.startsWith(w.prefix)) this.emit(() => w.handler.put(key, value, rev));
  }
  private remove(key: string, bump = true): void {
    if (!this.data.delete(key)) return;
    if (bump) this.revision++;
    const rev = String(this.revision);
    this.modRevisions.delete(key);
    for (const w of this.watches) if (key.startsWith(w.prefix)) this.emit(() => w.handler.delete(key, rev));
  }
}

/** A loopback HTTP server answering /api/v1/query like Prometheus with what `answer` says. */
export async function fakePrometheus(answer: (query: string) => { status?: number; body: unknown; delayMs?: number }): Promise<{ url: string; queries: string[]; mostOpen(): number; close(): Promise<void> }> {
  const queries: string[] = [];
  let open = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    // Requests open at once, as the client sees them (a request it abandons closes).
    open++;
    most = Math.max(most, open);
    res.once('close', () => { open--; });
    let data = '';
    req.on('data', (c: Buffer) => { data += c.toString(); });
    req.on('end', () => {
      const q = new URLSearchParams(data).get('query') ?? '';
      queries.push(q);
      const a = answer(q);
      const send = (): void => { res.writeHead(a.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(a.body)); };
      if (a.delayMs) setTimeout(send, a.delayMs).unref(); else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queries,
    mostOpen: () => most,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export async function until(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
