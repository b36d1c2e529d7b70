import { parsePeerRecord, peerRecordJson, type PeerRecord, type PeerSink, type PeerSource } from './peers.js';

/** Key of a peer of `agentGroup`: `<ns>/peers/<agent_group>/<id>`. */
export function peerKey(ns: string, agentGroup: string, id: string): string {
  return `${ns}/peers/${agentGroup}/${id}`;
}

/** Prefix of the peers of `agentGroup` (exact group match). */
export function peerPrefix(ns: string, agentGroup: string): string {
  return `${ns}/peers/${agentGroup}/`;
}

/** What the etcd source needs of @sluice/etcd's client (SluiceEtcd fits). */
export interface PeerEtcd {
  readonly namespace: string;
  readonly leased: { put(key: string, value: string): Promise<void>; delete(key: string): Promise<void> };
  watchPrefix(prefix: string, handler: { reset(entries: Map<string, string>): void; put(key: string, value: string): void; delete(key: string): void }): { shutdown(): Promise<void> };
}

export interface EtcdPeerSourceOptions {
  etcd: PeerEtcd;
  /** This agent's record, written on the lease at `<ns>/peers/<group>/<id>` (put back by the client after a lost lease). */
  self: PeerRecord;
  /** A record that does not parse or names another group or id. */
  onBadRecord?: (key: string) => void;
}

/**
 * Peers through etcd: this agent's record on its lease, and a watch of its
 * own group's prefix (matched exactly: `default/` never sees `default2/`).
 * When etcd is away the watch resyncs later; membership keeps running on gossip.
 */
export class EtcdPeerSource implements PeerSource {
  readonly name = 'etcd';
  private watch: { shutdown(): Promise<void> } | undefined;

  constructor(private readonly opts: EtcdPeerSourceOptions) {}

  async start(sink: PeerSink): Promise<void> {
    const { etcd, self } = this.opts;
    const prefix = peerPrefix(etcd.namespace, self.group);
    const recordOf = (key: string, value: string): PeerRecord | undefined => {
      const r = parsePeerRecord(value);
      if (r === undefined || r.group !== self.group || key !== prefix + r.id) {
        this.opts.onBadRecord?.(key);
        return undefined;
      }
      return r;
    };
    this.watch = etcd.watchPrefix(prefix, {
      reset: (entries) => {
        const peers: PeerRecord[] = [];
        for (const [k, v] of entries) {
          const r = recordOf(k, v);
          if (r !== undefined && r.id !== self.id) peers.push(r);
        }
        sink.reset(this.name, peers);
      },
      put: (k, v) => {
        const r = recordOf(k, v);
        if (r !== undefined && r.id !== self.id) sink.upsert(this.name, r);
      },
      delete: (k) => {
        if (k.startsWith(prefix)) sink.remove(this.name, k.slice(prefix.length));
      },
    });
    // Not awaited: the etcd client keeps the key and writes it once it holds a lease, so a slow or absent
    // etcd never holds up the agent's start (membership seeds from gossip meanwhile).
    void etcd.leased.put(peerKey(etcd.namespace, self.group, self.id), peerRecordJson(self)).catch(() => undefined);
  }

  async shutdown(): Promise<void> {
    await this.watch?.shutdown();
    this.watch = undefined;
    const { etcd, self } = this.opts;
    await etcd.leased.delete(peerKey(etcd.namespace, self.group, self.id)).catch(() => undefined);
  }
}
