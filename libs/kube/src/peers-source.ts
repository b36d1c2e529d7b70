import type { Lifecycle } from '@sluice/lifecycle';
// Dist-cache peers from the Kubernetes API: the ready endpoints of the agents' headless peers
// Service (the chart's `<release>-peers`), read from its EndpointSlices (label
// `kubernetes.io/service-name`) through the client's shared informer. Each endpoint address with
// the slice's ports named `dist-cache` and `memberlist` is a peer of this agent's group; the
// agent's own pod (its IP) is skipped. Every change hands the sink the source's full list (level
// triggered); the sink only seeds membership with it. The peer's id is `<ip>:<dist-cache port>`,
// the agent's own id when it advertises its pod IP with the dist-cache port (the chart's default).
import { isIP } from 'node:net';
import { k8s } from './k8s.js';
import type { KubeClient } from './kube-client.js';
import type { InformerHandler } from './shared-informer.js';

/** A peer as this source reports it (the same shape as @sluice/distcache's PeerRecord). */
export interface KubePeerRecord {
  readonly id: string;
  readonly group: string;
  readonly advertisementAddr: string;
  readonly distCache: { readonly bindAddr: string; readonly memberlistAddr: string };
}

/** Where the peers go (@sluice/distcache's PeerSink fits). */
export interface KubePeerSink {
  reset(source: string, peers: readonly KubePeerRecord[]): void;
}

/** What the source needs of a shared informer (SharedInformer fits). */
export interface EndpointSliceInformer {
  subscribe(h: InformerHandler<k8s.V1EndpointSlice>): () => void;
  start(): void;
}

export const PEERS_SOURCE_NAME = 'kubernetes';
export const DIST_CACHE_PORT_NAME = 'dist-cache';
export const MEMBERLIST_PORT_NAME = 'memberlist';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export type PeerSliceSkip = 'no_ports' | 'bad_address' | 'unsupported_address_type';

export interface KubernetesPeerSourceOptions {
  informer: EndpointSliceInformer;
  /** This agent's group: every peer found is of it (the Service selects the group's pods). */
  group: string;
  /** This agent's pod IP (POD_IP): skipped. */
  selfIp?: string;
  /** A slice or endpoint that cannot be a peer (said once per slice version). */
  onSkip?: (reason: PeerSliceSkip, slice: string) => void;
}

function hostPort(ip: string, port: number): string {
  return isIP(ip) === 6 ? `[${ip}]:${port}` : `${ip}:${port}`;
}

function portOf(slice: k8s.V1EndpointSlice, name: string): number | undefined {
  const p = (Array.isArray(slice.ports) ? slice.ports : []).find((x) => x?.name === name);
  return typeof p?.port === 'number' && Number.isInteger(p.port) && p.port > 0 && p.port < 65536 ? p.port : undefined;
}

/** The peers one EndpointSlice lists (ready, not terminating, not `selfIp`). */
export function peersOfSlice(slice: k8s.V1EndpointSlice, group: string, selfIp?: string, onSkip?: (reason: PeerSliceSkip) => void): KubePeerRecord[] {
  if (slice.addressType !== 'IPv4' && slice.addressType !== 'IPv6') {
    onSkip?.('unsupported_address_type');
    return [];
  }
  const ops = portOf(slice, DIST_CACHE_PORT_NAME);
  const ml = portOf(slice, MEMBERLIST_PORT_NAME);
  const endpoints = Array.isArray(slice.endpoints) ? slice.endpoints : [];
  if (ops === undefined || ml === undefined) {
    if (endpoints.length > 0) onSkip?.('no_ports');
    return [];
  }
  const out: KubePeerRecord[] = [];
  for (const ep of endpoints) {
    // A missing condition means ready (the EndpointSlice API's rule); a terminating agent is leaving.
    if (ep?.conditions?.ready === false || ep?.conditions?.terminating === true) continue;
    const ip = Array.isArray(ep?.addresses) ? ep.addresses[0] : undefined;
    if (typeof ip !== 'string' || isIP(ip) === 0) {
      onSkip?.('bad_address');
      continue;
    }
    if (ip === selfIp) continue;
    const bindAddr = hostPort(ip, ops);
    out.push({ id: bindAddr, group, advertisementAddr: bindAddr, distCache: { bindAddr, memberlistAddr: hostPort(ip, ml) } });
  }
  return out;
}

function keyOf(o: k8s.KubernetesObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

/** A PeerSource (@sluice/distcache) fed by the peers Service's EndpointSlices. */
export class KubernetesPeerSource implements Pick<Lifecycle, 'shutdown'> {
  readonly name = PEERS_SOURCE_NAME;
  private readonly bySlice = new Map<string, KubePeerRecord[]>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly opts: KubernetesPeerSourceOptions) {}

  /** The informer of `service`'s EndpointSlices in `namespace`, shared through the client. */
  static informerFor(client: KubeClient, namespace: string, service: string): EndpointSliceInformer {
    const api = client.api(k8s.DiscoveryV1Api);
    return client.informer<k8s.V1EndpointSlice>(
      { path: `/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/endpointslices`, labelSelector: `${SERVICE_NAME_LABEL}=${service}` },
      (sel) => api.listNamespacedEndpointSlice({ namespace, ...sel }, client.requestOptions()),
    );
  }

  start(sink: KubePeerSink): void {
    const set = (s: k8s.V1EndpointSlice): void => {
      const key = keyOf(s);
      this.bySlice.set(key, peersOfSlice(s, this.opts.group, this.opts.selfIp, (reason) => this.opts.onSkip?.(reason, key)));
      sink.reset(this.name, this.peers());
    };
    this.unsubscribe = this.opts.informer.subscribe({
      add: set,
      update: set,
      delete: (s) => {
        this.bySlice.delete(keyOf(s));
        sink.reset(this.name, this.peers());
      },
      synced: (all) => {
        const keep = new Set(all.map(keyOf));
        for (const k of [...this.bySlice.keys()]) if (!keep.has(k)) this.bySlice.delete(k);
        sink.reset(this.name, this.peers());
      },
    });
    this.opts.informer.start();
  }

  /** Stops following the slices (the lifecycle contract's shutdown; `start` takes the sink). */
  async shutdown(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Every peer the slices list now, one per id. */
  peers(): KubePeerRecord[] {
    const byId = new Map<string, KubePeerRecord>();
    for (const k of [...this.bySlice.keys()].sort()) for (const p of this.bySlice.get(k) ?? []) if (!byId.has(p.id)) byId.set(p.id, p);
    return [...byId.values()];
  }
}
