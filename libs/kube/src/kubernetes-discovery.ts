import type { Lifecycle } from '@sluice/lifecycle';
// Service discovery from Kubernetes (`service_discovery.kubernetes.enabled`): shared informers on
// EndpointSlices (discovery.k8s.io/v1) and Services (core/v1) keep entities in the agent's
// EntityCache, beside the static ones. An endpoint address is an entity (uid: the pod's uid, name,
// namespace, node name) in the services of every slice that lists it
// (`<service>.<namespace>.svc.<cluster domain>`); a Service's cluster IPs are entities of that
// service. A daemonset agent keeps only the endpoints of its node, a sidecar only its own pod.
// Slices or endpoints the agent cannot use (no service label, no or bad addresses, FQDN slices)
// are skipped and counted, never fatal. When the API is away the entities stay as they were;
// every complete list replaces what the informer knew.
import { isIP } from 'node:net';
import type { Entity, EntityCache } from '@sluice/discovery';
import { Counter, type Registry } from 'prom-client';
import { silentLogger } from './api-state.js';
import { k8s } from './k8s.js';
import type { KubeClient } from './kube-client.js';
import type { SharedInformer } from './shared-informer.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface DiscoveryScope {
  /** A daemonset agent: only endpoints on this node (NODE_NAME). */
  nodeName?: string;
  /** A sidecar: only this pod (POD_NAME, POD_NAMESPACE). */
  pod?: { name: string; namespace: string };
}

export interface KubernetesDiscoveryOptions {
  client: KubeClient;
  cache: EntityCache;
  scope?: DiscoveryScope;
  /** Default `cluster.local`. */
  clusterDomain?: string;
  logger?: Logger;
  registry?: Registry;
}

export type SkipReason = 'no_service_label' | 'no_addresses' | 'bad_address' | 'unsupported_address_type' | 'malformed';

interface Endpoint {
  ip: string;
  uid: string;
  name?: string;
  namespace?: string;
  nodeName?: string;
}

interface SliceView {
  service: string;
  endpoints: Endpoint[];
}

const SERVICE_LABEL = 'kubernetes.io/service-name';

function keyOf(o: k8s.KubernetesObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

export class KubernetesDiscovery implements Lifecycle {
  readonly name = 'kubernetes-discovery';
  private readonly slices: SharedInformer<k8s.V1EndpointSlice>;
  private readonly services: SharedInformer<k8s.V1Service>;
  /** What each slice contributes, by `<ns>/<name>`. */
  private readonly sliceViews = new Map<string, SliceView>();
  /** Entities from Services' cluster IPs, by `<ns>/<name>`. */
  private readonly serviceEntities = new Map<string, Entity[]>();
  /** Slices listing an IP, for recomputing that IP's entity. */
  private readonly slicesByIp = new Map<string, Set<string>>();
  /** The cache uid written for each IP from slices. */
  private readonly uidByIp = new Map<string, string>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly skipped: Counter<'reason'> | undefined;
  private readonly skippedCounts = new Map<SkipReason, number>();
  private readonly domain: string;
  private readonly logger: Logger;

  constructor(private readonly opts: KubernetesDiscoveryOptions) {
    this.domain = opts.clusterDomain ?? 'cluster.local';
    this.logger = opts.logger ?? silentLogger;
    const discoveryApi = opts.client.api(k8s.DiscoveryV1Api);
    const coreApi = opts.client.api(k8s.CoreV1Api);
    const ro = () => opts.client.requestOptions();
    this.slices = opts.client.informer<k8s.V1EndpointSlice>({ path: '/apis/discovery.k8s.io/v1/endpointslices' }, (sel) => discoveryApi.listEndpointSliceForAllNamespaces(sel, ro()));
    this.services = opts.client.informer<k8s.V1Service>({ path: '/api/v1/services' }, (sel) => coreApi.listServiceForAllNamespaces(sel, ro()));
    if (opts.registry) {
      this.skipped = new Counter({
        name: 'sluice_kubernetes_discovery_skipped_total',
        help: 'EndpointSlices or endpoints that service discovery could not use, by reason.',
        labelNames: ['reason'],
        registers: [opts.registry],
      });
    }
  }

  async start(): Promise<void> {
    this.unsubscribe.push(this.slices.subscribe({
      add: (s) => this.setSlice(s),
      update: (s) => this.setSlice(s),
      delete: (s) => this.dropSlice(keyOf(s)),
      synced: (all) => {
        const keep = new Set(all.map(keyOf));
        for (const k of [...this.sliceViews.keys()]) if (!keep.has(k)) this.dropSlice(k);
      },
    }));
    this.unsubscribe.push(this.services.subscribe({
      add: (s) => this.setService(s),
      update: (s) => this.setService(s),
      delete: (s) => this.dropService(keyOf(s)),
      synced: (all) => {
        const keep = new Set(all.map(keyOf));
        for (const k of [...this.serviceEntities.keys()]) if (!keep.has(k)) this.dropService(k);
      },
    }));
    this.slices.start();
    this.services.start();
  }

  /** Stops following the informers (the shared client's informers keep running for its other users). */
  async shutdown(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
  }

  /** Slices and services seen, entities written, and skips by reason. */
  stats(): { endpointSlices: number; services: number; entities: number; skipped: Record<string, number> } {
    return {
      endpointSlices: this.sliceViews.size,
      services: this.serviceEntities.size,
      entities: this.uidByIp.size + [...this.serviceEntities.values()].reduce((n, es) => n + es.length, 0),
      skipped: Object.fromEntries(this.skippedCounts),
    };
  }

  private skip(reason: SkipReason, what: string, n = 1): void {
    this.skippedCounts.set(reason, (this.skippedCounts.get(reason) ?? 0) + n);
    this.skipped?.inc({ reason }, n);
    this.logger.debug('EndpointSlice data skipped', { reason, slice: what });
  }

  private inScope(ep: Endpoint): boolean {
    const s = this.opts.scope;
    if (s?.pod) return ep.name === s.pod.name && ep.namespace === s.pod.namespace;
    if (s?.nodeName) return ep.nodeName === s.nodeName;
    return true;
  }

  /** The slice's usable endpoints, or undefined when the whole slice is unusable. */
  private view(slice: k8s.V1EndpointSlice): SliceView | undefined {
    const key = keyOf(slice);
    const labels = slice.metadata?.labels;
    const svc = labels && typeof labels === 'object' ? labels[SERVICE_LABEL] : undefined;
    if (typeof svc !== 'string' || svc === '') {
      this.skip('no_service_label', key);
      return undefined;
    }
    if (slice.addressType !== 'IPv4' && slice.addressType !== 'IPv6') {
      this.skip(slice.addressType === 'FQDN' ? 'unsupported_address_type' : 'malformed', key);
      return undefined;
    }
    if (slice.endpoints !== undefined && slice.endpoints !== null && !Array.isArray(slice.endpoints)) {
      this.skip('malformed', key);
      return undefined;
    }
    const ns = slice.metadata?.namespace ?? '';
    const out: Endpoint[] = [];
    for (const ep of slice.endpoints ?? []) {
      if (!ep || typeof ep !== 'object' || !Array.isArray(ep.addresses) || ep.addresses.length === 0) {
        this.skip('no_addresses', key);
        continue;
      }
      const ip = ep.addresses[0];
      if (typeof ip !== 'string' || isIP(ip) === 0) {
        this.skip('bad_address', key);
        continue;
      }
      const ref = ep.targetRef && typeof ep.targetRef === 'object' ? ep.targetRef : undefined;
      const isPod = ref?.kind === 'Pod';
      const e: Endpoint = {
        ip,
        uid: isPod && typeof ref?.uid === 'string' && ref.uid !== '' ? (slice.addressType === 'IPv6' ? `${ref.uid}/ipv6` : ref.uid) : `ip:${ip}`,
        name: isPod && typeof ref?.name === 'string' ? ref.name : undefined,
        namespace: isPod ? (typeof ref?.namespace === 'string' ? ref.namespace : ns) : undefined,
        nodeName: typeof ep.nodeName === 'string' ? ep.nodeName : undefined,
      };
      if (this.inScope(e)) out.push(e);
    }
    return { service: `${svc}.${ns}.svc.${this.domain}`, endpoints: out };
  }

  private setSlice(slice: k8s.V1EndpointSlice): void {
    const key = keyOf(slice);
    let v: SliceView | undefined;
    try {
      v = this.view(slice);
    } catch (err) {
      this.skip('malformed', key);
      this.logger.warn('an EndpointSlice could not be read', { slice: key, error: (err as Error).message });
    }
    const touched = new Set<string>();
    const old = this.sliceViews.get(key);
    for (const e of old?.endpoints ?? []) {
      this.slicesByIp.get(e.ip)?.delete(key);
      touched.add(e.ip);
    }
    if (v) {
      this.sliceViews.set(key, v);
      for (const e of v.endpoints) {
        let set = this.slicesByIp.get(e.ip);
        if (!set) {
          set = new Set();
          this.slicesByIp.set(e.ip, set);
        }
        set.add(key);
        touched.add(e.ip);
      }
    } else this.sliceViews.delete(key);
    for (const ip of touched) this.recompute(ip);
  }

  private dropSlice(key: string): void {
    const old = this.sliceViews.get(key);
    if (!old) return;
    this.sliceViews.delete(key);
    for (const e of old.endpoints) {
      this.slicesByIp.get(e.ip)?.delete(key);
      this.recompute(e.ip);
    }
  }

  /** Writes the entity of `ip` from every slice that lists it, or removes it. */
  private recompute(ip: string): void {
    const keys = this.slicesByIp.get(ip);
    const oldUid = this.uidByIp.get(ip);
    if (!keys || keys.size === 0) {
      this.slicesByIp.delete(ip);
      if (oldUid !== undefined) {
        this.opts.cache.remove(oldUid);
        this.uidByIp.delete(ip);
      }
      return;
    }
    const services = new Set<string>();
    let ep: Endpoint | undefined;
    for (const k of [...keys].sort()) {
      const v = this.sliceViews.get(k);
      if (!v) continue;
      services.add(v.service);
      ep ??= v.endpoints.find((e) => e.ip === ip);
    }
    if (!ep) return;
    if (oldUid !== undefined && oldUid !== ep.uid) this.opts.cache.remove(oldUid);
    const entity: Entity = { ip_address: ip, uid: ep.uid, services: [...services].sort() };
    if (ep.name !== undefined) entity.name = ep.name;
    if (ep.namespace !== undefined) entity.namespace = ep.namespace;
    if (ep.nodeName !== undefined) entity.node_name = ep.nodeName;
    this.opts.cache.add(entity);
    this.uidByIp.set(ip, ep.uid);
  }

  private setService(svc: k8s.V1Service): void {
    const key = keyOf(svc);
    const ns = svc.metadata?.namespace ?? '';
    const name = svc.metadata?.name ?? '';
    const uid = svc.metadata?.uid ?? `service:${key}`;
    const ips = new Set<string>();
    for (const ip of [svc.spec?.clusterIP, ...(Array.isArray(svc.spec?.clusterIPs) ? svc.spec.clusterIPs : [])]) {
      if (typeof ip === 'string' && isIP(ip) !== 0) ips.add(ip);
    }
    const fqdn = `${name}.${ns}.svc.${this.domain}`;
    const entities = [...ips].map((ip, i): Entity => ({ ip_address: ip, uid: i === 0 ? uid : `${uid}/${ip}`, name, namespace: ns, services: [fqdn] }));
    for (const old of this.serviceEntities.get(key) ?? []) if (!entities.some((e) => e.uid === old.uid)) this.opts.cache.remove(old.uid);
    for (const e of entities) this.opts.cache.add(e);
    if (entities.length > 0) this.serviceEntities.set(key, entities);
    else this.serviceEntities.delete(key);
  }

  private dropService(key: string): void {
    for (const old of this.serviceEntities.get(key) ?? []) this.opts.cache.remove(old.uid);
    this.serviceEntities.delete(key);
  }
}
