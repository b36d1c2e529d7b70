// A test double of the Kubernetes API server's protocol (HTTP on loopback), for what Sluice and
// kubectl use: discovery, /version, a minimal OpenAPI, CRDs, CRUD of built-in and custom
// resources with the status and scale subresources, merge/JSON/strategic patches, Tables for
// `kubectl get`, list/watch with resourceVersion, bookmarks, timeoutSeconds and 410 Gone, label
// and field selectors. It is not a model of our code: @kubernetes/client-node and kubectl talk
// to it unchanged. Test hooks: expireHistory (410 on the next stale watch), dropWatches,
// stopServing/resumeServing (the API away), also as POST /_sluice/<hook>.
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApiError, alreadyExists, badRequest, conflict, gone, invalid, notFound } from './api-error.js';
import { parseFieldSelector } from './field-selector.js';
import { matchLabelsString, parseLabelSelector } from './label-selector.js';
import { CrSchemas } from './cr-schema.js';
import { openApiV3 } from './openapi.js';
import { applyPatch, type Json } from './patch.js';
import { apiVersionOf, builtInTypes, crdProblems, typesOfCrd, VERBS, type CrdLike, type ResourceType } from './resource-types.js';
import { Store, TooOldError, type Change, type KubeObject } from './store.js';
import { toTable, wantsTable, evalJsonPath } from './table.js';
import { parseJson, readBody, send, sendText } from './http-io.js';
import { grOf, isObject, metaForCompare, nowRfc3339, parseRv, sameJson, setPath, specPart } from './object-fields.js';

export interface KubeApiOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Changes kept for watches to replay; older resourceVersions get 410. Default 10 000. */
  historyLimit?: number;
  /** Period of BOOKMARK events on watches that allow them. Default 1000 ms. */
  bookmarkIntervalMs?: number;
  /** Namespaces that exist from the start. Default default, kube-system, kube-public. */
  namespaces?: string[];
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

interface Target {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  watch: boolean;
}

interface WatchStream {
  res: ServerResponse;
  close(): void;
}

export class KubeApiServer {
  private readonly store: Store;
  private readonly types = new Map<string, ResourceType>();
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<WatchStream>();
  private readonly bookmarkIntervalMs: number;
  private port: number;
  private readonly host: string;
  private serving = false;
  private clusterIpNext = 1;
  private readonly schemas = new CrSchemas();

  constructor(private readonly opts: KubeApiOptions = {}) {
    this.store = new Store(opts.historyLimit ?? 10_000);
    this.bookmarkIntervalMs = opts.bookmarkIntervalMs ?? 1000;
    this.port = opts.port ?? 0;
    this.host = opts.host ?? '127.0.0.1';
    for (const t of builtInTypes()) this.types.set(`${t.group}/${t.version}/${t.resource}`, t);
    const now = nowRfc3339();
    for (const ns of opts.namespaces ?? ['default', 'kube-system', 'kube-public']) {
      this.store.put('/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, uid: randomUUID(), resourceVersion: '', creationTimestamp: now, labels: { 'kubernetes.io/metadata.name': ns } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    }
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** Starts serving; resolves with the base URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, this.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.serving = true;
    return this.url;
  }

  get url(): string {
    return `http://${this.host}:${this.port}`;
  }

  /** The API away: closes the listener and every connection (watches break). State is kept. */
  async stopServing(): Promise<void> {
    if (!this.serving) return;
    this.serving = false;
    for (const w of [...this.watches]) w.close();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  /** Serves again on the same port with the same state. */
  async resumeServing(): Promise<void> {
    if (this.serving) return;
    await this.start();
  }

  async close(): Promise<void> {
    await this.stopServing();
  }

  /** Forgets the change history: watches from any earlier resourceVersion get 410 Gone. */
  expireHistory(): void {
    this.store.expireHistory();
  }

  /** Ends every open watch (clients see the stream end and reconnect). */
  dropWatches(): void {
    for (const w of [...this.watches]) w.close();
  }

  openWatches(): number {
    return this.watches.size;
  }

  currentResourceVersion(): string {
    return String(this.store.currentRv());
  }

  /** Objects of a resource as stored (for assertions), e.g. objects('sluice.dev', 'policies'). */
  objects(group: string, resource: string, namespace?: string): KubeObject[] {
    return this.store.list(`${group}/${resource}`, namespace).map((o) => structuredClone(o));
  }

  // ---- HTTP ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
      const ct = (req.headers['content-type'] ?? '').toLowerCase();
      if (body.length > 0 && /protobuf|cbor/.test(ct)) {
        throw new ApiError(415, 'UnsupportedMediaType', `the test API server reads JSON bodies only, not ${ct} (kubectl's \`create <kind> NAME\` generators send protobuf: use \`kubectl apply -f\` or \`kubectl create -f\`)`);
      }
      await this.route(req, res, url, body);
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(500, 'InternalError', (err as Error).message);
      if (!res.headersSent) send(res, e.code, e.toStatus());
      else res.destroy();
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> {
    const p = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (p === '/version') return send(res, 200, { major: '1', minor: '32', gitVersion: 'v1.32.0-sluice-test', gitCommit: '', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z', goVersion: 'go1.23', compiler: 'gc', platform: 'linux/amd64' });
    if (p === '/healthz' || p === '/readyz' || p === '/livez') return sendText(res, 200, 'ok');
    if (p.startsWith('/_sluice/') && method === 'POST') return this.hook(res, p.slice('/_sluice/'.length));
    if (p === '/api') return send(res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `${this.host}:${this.port}` }] });
    if (p === '/apis') return send(res, 200, this.groupList());
    if (p === '/openapi/v2') return send(res, 404, notFound('', 'openapi', 'v2').toStatus());
    if (p === '/openapi/v3') return send(res, 200, openApiV3([...this.types.values()]).root);
    if (p.startsWith('/openapi/v3/')) {
      const doc = openApiV3([...this.types.values()]).documents.get(p.slice('/openapi/v3/'.length));
      if (!doc) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      return send(res, 200, doc);
    }
    const segs = p.split('/').filter((s) => s !== '').map(decodeURIComponent);
    let group: string;
    let version: string;
    let rest: string[];
    if (segs[0] === 'api' && segs.length >= 2) {
      group = '';
      version = segs[1];
      rest = segs.slice(2);
    } else if (segs[0] === 'apis' && segs.length === 2) {
      const g = this.groupList().groups.find((x) => x.name === segs[1]);
      if (!g) throw notFound('', 'groups', segs[1]);
      return send(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...g });
    } else if (segs[0] === 'apis' && segs.length >= 3) {
      group = segs[1];
      version = segs[2];
      rest = segs.slice(3);
    } else throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    if (rest.length === 0) {
      if (method !== 'GET') throw new ApiError(405, 'MethodNotAllowed', 'method not allowed');
      return send(res, 200, this.resourceList(group, version));
    }
    const target = this.target(group, version, rest, url);
    await this.serve(req, res, url, body, target);
  }

  private hook(res: ServerResponse, name: string): void {
    if (name === 'expire-history') this.expireHistory();
    else if (name === 'drop-watches') this.dropWatches();
    else throw notFound('', 'hooks', name);
    send(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 });
  }

  private typeOf(group: string, version: string, resource: string): ResourceType {
    const t = this.types.get(`${group}/${version}/${resource}`);
    if (!t) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    return t;
  }

  private target(group: string, version: string, rest: string[], url: URL): Target {
    let segs = rest;
    let watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    if (segs[0] === 'watch') {
      watch = true;
      segs = segs.slice(1);
    }
    // /api/v1/namespaces/<ns>/status|finalize are subresources of the namespace itself.
    if (segs[0] === 'namespaces' && segs.length >= 3 && !(group === '' && segs.length === 3 && (segs[2] === 'status' || segs[2] === 'finalize'))) {
      const type = this.typeOf(group, version, segs[2]);
      if (!type.namespaced) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      if (segs.length > 5) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      return { type, namespace: segs[1], name: segs[3], subresource: segs[4], watch };
    }
    if (segs.length > 3) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const type = this.typeOf(group, version, segs[0]);
    if (type.namespaced && segs.length > 1) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    return { type, name: segs[1], subresource: segs[2], watch };
  }

  private groupList(): { kind: string; apiVersion: string; groups: { name: string; versions: { groupVersion: string; version: string }[]; preferredVersion: { groupVersion: string; version: string } }[] } {
    const groups = new Map<string, string[]>();
    for (const t of this.types.values()) {
      if (t.group === '') continue;
      const vs = groups.get(t.group) ?? [];
      if (!vs.includes(t.version)) vs.push(t.version);
      groups.set(t.group, vs);
    }
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [...groups.entries()].map(([name, versions]) => {
        const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
        return { name, versions: vs, preferredVersion: vs[0] };
      }),
    };
  }

  private resourceList(group: string, version: string): unknown {
    const types = [...this.types.values()].filter((t) => t.group === group && t.version === version);
    if (types.length === 0) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const resources: unknown[] = [];
    for (const t of types) {
      const base = { name: t.resource, singularName: t.singular, namespaced: t.namespaced, kind: t.kind, verbs: VERBS };
      resources.push({ ...base, ...(t.shortNames.length ? { shortNames: t.shortNames } : {}), ...(t.categories.length ? { categories: t.categories } : {}) });
      if (t.status) resources.push({ name: `${t.resource}/status`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get', 'patch', 'update'] });
      if (t.scale) resources.push({ name: `${t.resource}/scale`, singularName: '', namespaced: t.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
    }
    return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
  }

  private async serve(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer, t: Target): Promise<void> {
    const method = req.method ?? 'GET';
    const { type } = t;
    const dryRun = url.searchParams.getAll('dryRun').includes('All');
    if (t.namespace !== undefined && method !== 'GET' && method !== 'DELETE' && !(t.type.group === '' && t.type.resource === 'namespaces')) this.requireNamespace(t.namespace);
    if (t.name === undefined) {
      if (method === 'GET' && t.watch) return this.watch(req, res, url, t);
      if (method === 'GET') return this.list(req, res, url, t);
      if (method === 'POST') return send(res, 201, this.out(type, this.create(type, t.namespace, parseJson(body), dryRun)));
      if (method === 'DELETE') return this.deleteCollection(res, url, t, dryRun);
      throw new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
    }
    if (t.watch) {
      url.searchParams.set('fieldSelector', `metadata.name=${t.name}`);
      return this.watch(req, res, url, { ...t, name: undefined });
    }
    const name = t.name;
    if (t.subresource === 'scale') {
      if (!type.scale) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      return this.scale(req, res, body, t, name, dryRun);
    }
    if (t.subresource !== undefined && !(t.subresource === 'status' && type.status)) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const status = t.subresource === 'status';
    switch (method) {
      case 'GET':
        return send(res, 200, this.out(type, this.mustGet(type, t.namespace, name)));
      case 'PUT':
        return send(res, 200, this.out(type, this.update(type, t.namespace, name, parseJson(body), status, dryRun)));
      case 'PATCH': {
        const old = this.mustGet(type, t.namespace, name);
        const patched = applyPatch(req.headers['content-type'] ?? '', this.out(type, old) as unknown as Json, body, type.builtIn);
        if (!isObject(patched)) throw badRequest('the patch did not produce an object');
        return send(res, 200, this.out(type, this.update(type, t.namespace, name, patched, status, dryRun)));
      }
      case 'DELETE':
        if (status) throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
        return send(res, 200, this.out(type, this.delete(type, t.namespace, name, body, dryRun)));
      default:
        throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    }
  }

  private requireNamespace(ns: string): void {
    const o = this.store.get('/namespaces', undefined, ns);
    if (!o) throw notFound('', 'namespaces', ns);
    if (o.metadata.deletionTimestamp) throw new ApiError(403, 'BadRequest', `namespace ${ns} is being terminated`);
  }

  /** The object as served: apiVersion and kind of the requested version. */
  private out(type: ResourceType, obj: KubeObject): KubeObject {
    return { ...obj, apiVersion: apiVersionOf(type), kind: type.kind };
  }

  private mustGet(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const o = this.store.get(grOf(type), namespace, name);
    if (!o) throw notFound(type.group, type.resource, name);
    return o;
  }

  // ---- writes ----

  private checkKind(type: ResourceType, obj: Record<string, unknown>): void {
    if (obj.kind !== undefined && obj.kind !== type.kind) throw badRequest(`the kind "${String(obj.kind)}" of the object does not match the resource (expected ${type.kind})`);
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersionOf(type)) throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(type)})`);
  }

  private create(type: ResourceType, namespace: string | undefined, raw: unknown, dryRun: boolean): KubeObject {
    if (!isObject(raw)) throw badRequest('the body of the request is not an object');
    this.checkKind(type, raw);
    const meta = isObject(raw.metadata) ? { ...raw.metadata } : {};
    if (type.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      if (namespace === undefined) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      meta.namespace = namespace;
    } else delete meta.namespace;
    let name = typeof meta.name === 'string' ? meta.name : '';
    if (name === '' && typeof meta.generateName === 'string' && meta.generateName !== '') name = `${meta.generateName}${randomUUID().slice(0, 5)}`;
    if (name === '') throw invalid(type.group, type.kind, '', [{ field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
    if (!DNS_SUBDOMAIN.test(name) || name.length > 253) throw invalid(type.group, type.kind, name, [{ field: 'metadata.name', message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character` }]);
    if (this.store.get(grOf(type), meta.namespace as string | undefined, name)) throw alreadyExists(type.group, type.resource, name);
    const obj: KubeObject = {
      ...raw,
      apiVersion: apiVersionOf(type),
      kind: type.kind,
      metadata: {
        ...meta,
        name,
        uid: randomUUID(),
        resourceVersion: '',
        creationTimestamp: nowRfc3339(),
        ...(raw.spec !== undefined || !type.builtIn ? { generation: 1 } : {}),
      },
    };
    delete obj.metadata.deletionTimestamp;
    if (type.status) delete obj.status;
    this.admit(type, obj);
    this.schemas.admit(type, obj);
    if (dryRun) return obj;
    const stored = this.store.put(grOf(type), obj);
    if (this.isCrd(type)) return this.establish(stored);
    return stored;
  }

  private isCrd(type: ResourceType): boolean {
    return type.group === 'apiextensions.k8s.io' && type.resource === 'customresourcedefinitions';
  }

  /** What admission and the built-in controllers would do at once: CRD checks, service cluster IPs. */
  private admit(type: ResourceType, obj: KubeObject): void {
    if (this.isCrd(type)) {
      const problems = crdProblems(obj as unknown as CrdLike);
      if (problems.length > 0) throw invalid(type.group, type.kind, obj.metadata.name, problems);
      for (const nt of typesOfCrd(obj as unknown as CrdLike)) {
        const existing = this.types.get(`${nt.group}/${nt.version}/${nt.resource}`);
        if (existing && existing.crd !== obj.metadata.name) throw invalid(type.group, type.kind, obj.metadata.name, [{ field: 'spec.names.plural', message: `Invalid value: "${nt.resource}": is already in use` }]);
      }
    }
    if (type.group === '' && type.resource === 'namespaces' && obj.status === undefined) obj.status = { phase: 'Active' };
    if (type.group === '' && type.resource === 'services' && isObject(obj.spec)) {
      const spec = obj.spec as Record<string, unknown>;
      if (spec.type !== 'ExternalName' && spec.clusterIP === undefined) {
        const n = this.clusterIpNext++;
        spec.clusterIP = `10.96.${Math.floor(n / 250)}.${(n % 250) + 1}`;
        spec.clusterIPs = [spec.clusterIP];
      }
    }
  }

  /** Registers the CRD's kinds and marks it Established and NamesAccepted, as the apiextensions controller does. */
  private establish(crd: KubeObject): KubeObject {
    const name = crd.metadata.name;
    for (const [k, t] of this.types) if (t.crd === name) this.types.delete(k);
    for (const t of typesOfCrd(crd as unknown as CrdLike)) this.types.set(`${t.group}/${t.version}/${t.resource}`, t);
    const spec = (crd as unknown as CrdLike).spec ?? {};
    const now = nowRfc3339();
    const status = {
      acceptedNames: spec.names ?? {},
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: now },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: now },
      ],
      storedVersions: (spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
    };
    if (sameJson(crd.status && (crd.status as { storedVersions?: unknown }).storedVersions, status.storedVersions) && isObject(crd.status) && Array.isArray(crd.status.conditions)) return crd;
    return this.store.put(grOf({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }), { ...crd, status });
  }

  private update(type: ResourceType, namespace: string | undefined, name: string, raw: unknown, statusOnly: boolean, dryRun: boolean): KubeObject {
    if (!isObject(raw)) throw badRequest('the body of the request is not an object');
    this.checkKind(type, raw);
    const old = this.mustGet(type, namespace, name);
    const meta = isObject(raw.metadata) ? raw.metadata : {};
    if (meta.name !== undefined && meta.name !== name) throw badRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`);
    if (type.namespaced && meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== '' && meta.resourceVersion !== old.metadata.resourceVersion) throw conflict(type.group, type.resource, name);
    let next: KubeObject;
    if (statusOnly) {
      next = { ...old, status: raw.status };
      if (raw.status === undefined) delete next.status;
    } else {
      next = {
        ...raw,
        apiVersion: apiVersionOf(type),
        kind: type.kind,
        metadata: {
          ...(meta as Record<string, unknown>),
          name,
          ...(type.namespaced ? { namespace } : {}),
          uid: old.metadata.uid,
          creationTimestamp: old.metadata.creationTimestamp,
          resourceVersion: old.metadata.resourceVersion,
          ...(old.metadata.deletionTimestamp ? { deletionTimestamp: old.metadata.deletionTimestamp } : {}),
        },
      };
      if (!type.namespaced) delete next.metadata.namespace;
      if (!old.metadata.deletionTimestamp) delete next.metadata.deletionTimestamp;
      if (type.status) {
        if (old.status === undefined) delete next.status;
        else next.status = old.status;
      }
      // Pruned and validated after the stored status is put back and before generation is computed:
      // a field the schema drops is no change.
      this.schemas.admit(type, next);
      const gen = old.metadata.generation;
      if (gen !== undefined || next.spec !== undefined) {
        const changed = !sameJson(specPart(old, !type.status), specPart(next, !type.status));
        next.metadata.generation = (gen ?? 0) + (changed || gen === undefined ? 1 : 0);
      } else delete next.metadata.generation;
      this.admit(type, next);
    }
    this.schemas.admit(type, next);
    if (sameJson(metaForCompare(old), metaForCompare(next)) && sameJson(specPart(old, true), specPart(next, true))) return old;
    if (dryRun) return next;
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      return this.removeNow(type, next);
    }
    const stored = this.store.put(grOf(type), next);
    if (this.isCrd(type) && !statusOnly) return this.establish(stored);
    return stored;
  }

  private scale(req: IncomingMessage, res: ServerResponse, body: Buffer, t: Target, name: string, dryRun: boolean): void {
    const type = t.type;
    const spec = type.scale;
    if (!spec) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const toScale = (o: KubeObject): KubeObject => {
      const sel = spec.labelSelectorPath ? evalJsonPath(o, spec.labelSelectorPath) : undefined;
      return {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
        spec: { replicas: Number(evalJsonPath(o, spec.specReplicasPath) ?? 0) },
        status: { replicas: Number(evalJsonPath(o, spec.statusReplicasPath) ?? 0), selector: typeof sel === 'string' ? sel : matchLabelsString(sel) },
      };
    };
    const method = req.method ?? 'GET';
    const old = this.mustGet(type, t.namespace, name);
    if (method === 'GET') return send(res, 200, toScale(old));
    if (method !== 'PUT' && method !== 'PATCH') throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    const current = toScale(old);
    const next = method === 'PUT' ? parseJson(body) : applyPatch(req.headers['content-type'] ?? '', current as unknown as Json, body, true);
    if (!isObject(next) || !isObject(next.spec)) throw badRequest('a Scale with spec.replicas is required');
    const replicas = next.spec.replicas;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) throw invalid('autoscaling', 'Scale', name, [{ field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` }]);
    const rv = isObject(next.metadata) ? next.metadata.resourceVersion : undefined;
    if (typeof rv === 'string' && rv !== '' && rv !== old.metadata.resourceVersion) throw conflict(type.group, type.resource, name);
    const updated = structuredClone(old);
    setPath(updated, spec.specReplicasPath, replicas);
    const stored = this.update(type, t.namespace, name, updated, false, dryRun);
    send(res, 200, toScale(stored));
  }

  private delete(type: ResourceType, namespace: string | undefined, name: string, body: Buffer, dryRun: boolean): KubeObject {
    const old = this.mustGet(type, namespace, name);
    const opts = body.length > 0 ? parseJson(body) : {};
    const pre = isObject(opts) && isObject(opts.preconditions) ? opts.preconditions : {};
    if ((typeof pre.uid === 'string' && pre.uid !== old.metadata.uid) || (typeof pre.resourceVersion === 'string' && pre.resourceVersion !== old.metadata.resourceVersion)) {
      throw conflict(type.group, type.resource, name);
    }
    if (dryRun) return old;
    if ((old.metadata.finalizers ?? []).length > 0) {
      if (old.metadata.deletionTimestamp) return old;
      return this.store.put(grOf(type), { ...old, metadata: { ...old.metadata, deletionTimestamp: nowRfc3339() } });
    }
    return this.removeNow(type, old);
  }

  private removeNow(type: ResourceType, obj: KubeObject): KubeObject {
    if (this.isCrd(type)) {
      for (const [k, t] of this.types) {
        if (t.crd !== obj.metadata.name) continue;
        this.types.delete(k);
        for (const cr of this.store.list(grOf(t))) this.store.remove(grOf(t), cr);
      }
    }
    if (type.group === '' && type.resource === 'namespaces') {
      const grs = new Set([...this.types.values()].filter((t) => t.namespaced).map(grOf));
      for (const gr of grs) for (const o of this.store.list(gr, obj.metadata.name)) this.store.remove(gr, o);
    }
    return this.store.remove(grOf(type), obj) ?? obj;
  }

  private deleteCollection(res: ServerResponse, url: URL, t: Target, dryRun: boolean): void {
    const items = this.select(t, url);
    const out = items.map((o) => (dryRun ? o : this.delete(t.type, o.metadata.namespace, o.metadata.name, Buffer.alloc(0), false)));
    send(res, 200, { apiVersion: apiVersionOf(t.type), kind: t.type.listKind, metadata: { resourceVersion: String(this.store.currentRv()) }, items: out.map((o) => this.out(t.type, o)) });
  }

  // ---- reads ----

  private matcher(t: Target, url: URL): (o: KubeObject) => boolean {
    const labels = parseLabelSelector(url.searchParams.get('labelSelector'));
    const fields = parseFieldSelector(t.type.group, t.type.resource, url.searchParams.get('fieldSelector'));
    return (o) => (t.namespace === undefined || o.metadata.namespace === t.namespace) && labels(o.metadata.labels) && fields(o);
  }

  private select(t: Target, url: URL): KubeObject[] {
    const m = this.matcher(t, url);
    return this.store.list(grOf(t.type), t.namespace).filter(m);
  }

  private list(req: IncomingMessage, res: ServerResponse, url: URL, t: Target): void {
    const rvParam = url.searchParams.get('resourceVersion');
    if (rvParam && rvParam !== '0' && url.searchParams.get('resourceVersionMatch') === 'Exact') {
      const rv = parseRv(rvParam);
      if (rv !== this.store.currentRv()) {
        if (rv < this.store.oldestWatchableRv()) throw gone(`The resourceVersion for the provided list is too old.`);
        throw new ApiError(504, 'ServiceUnavailable', 'the test API server lists only at the current resourceVersion');
      }
    }
    let items = this.select(t, url);
    const limitRaw = url.searchParams.get('limit');
    const cont = url.searchParams.get('continue');
    const listMeta: Record<string, unknown> = { resourceVersion: String(this.store.currentRv()) };
    if (cont) {
      let token: { rv: number; after: string };
      try {
        token = JSON.parse(Buffer.from(cont, 'base64url').toString('utf8')) as { rv: number; after: string };
      } catch {
        throw badRequest('continue key is not valid');
      }
      if (typeof token.rv !== 'number' || typeof token.after !== 'string') throw badRequest('continue key is not valid');
      if (token.rv < this.store.oldestWatchableRv()) throw gone('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
      items = items.filter((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}` > token.after);
      listMeta.resourceVersion = String(token.rv);
    }
    const limit = limitRaw ? Number(limitRaw) : 0;
    if (!Number.isInteger(limit) || limit < 0) throw badRequest(`invalid limit: ${limitRaw}`);
    if (limit > 0 && items.length > limit) {
      const last = items[limit - 1];
      items = items.slice(0, limit);
      listMeta.continue = Buffer.from(JSON.stringify({ rv: Number(listMeta.resourceVersion), after: `${last.metadata.namespace ?? ''}/${last.metadata.name}` })).toString('base64url');
    }
    const served = items.map((o) => this.out(t.type, o));
    if (wantsTable(req.headers.accept)) return send(res, 200, toTable(t.type, served, listMeta, url.searchParams.get('includeObject')));
    send(res, 200, { apiVersion: apiVersionOf(t.type), kind: t.type.listKind, metadata: listMeta, items: served });
  }

  private watch(req: IncomingMessage, res: ServerResponse, url: URL, t: Target): void {
    const match = this.matcher(t, url);
    const rvParam = url.searchParams.get('resourceVersion');
    const bookmarks = url.searchParams.get('allowWatchBookmarks') === 'true';
    const timeoutRaw = url.searchParams.get('timeoutSeconds');
    const timeoutS = timeoutRaw === null ? undefined : Number(timeoutRaw);
    if (timeoutS !== undefined && (!Number.isFinite(timeoutS) || timeoutS < 0)) throw badRequest(`invalid timeoutSeconds: ${timeoutRaw}`);
    const gr = grOf(t.type);
    const table = wantsTable(req.headers.accept);
    let backlog: Change[] = [];
    let initial: KubeObject[] = [];
    let tooOld: TooOldError | undefined;
    let from = this.store.currentRv();
    if (!rvParam || rvParam === '0') initial = this.store.list(gr, t.namespace).filter(match);
    else {
      from = parseRv(rvParam);
      try {
        backlog = this.store.changesSince(gr, from);
      } catch (err) {
        if (!(err instanceof TooOldError)) throw err;
        tooOld = err;
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const write = (type: string, object: unknown): void => {
      if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
    };
    const emit = (type: string, obj: KubeObject): void => {
      const o = this.out(t.type, obj);
      write(type, table ? toTable(t.type, [o], {}, 'Object') : o);
    };
    if (tooOld) {
      write('ERROR', gone(tooOld.message).toStatus());
      res.end();
      return;
    }
    let lastRv = from;
    const onChange = (c: Change): void => {
      if (c.rv <= lastRv) return;
      lastRv = c.rv;
      const now = match(c.object);
      const before = c.old ? match(c.old) : false;
      if (c.type === 'DELETED') {
        if (now) emit('DELETED', c.object);
      } else if (c.type === 'ADDED') {
        if (now) emit('ADDED', c.object);
      } else if (now && before) emit('MODIFIED', c.object);
      else if (now) emit('ADDED', c.object);
      else if (before) emit('DELETED', c.object);
    };
    for (const o of initial) emit('ADDED', o);
    for (const c of backlog) onChange(c);
    const unsubscribe = this.store.subscribe(gr, onChange);
    const timers: NodeJS.Timeout[] = [];
    const stream: WatchStream = {
      res,
      close: () => {
        if (!res.writableEnded) res.end();
        cleanup();
      },
    };
    const cleanup = (): void => {
      unsubscribe();
      for (const tm of timers) clearInterval(tm);
      this.watches.delete(stream);
    };
    this.watches.add(stream);
    res.on('close', cleanup);
    if (bookmarks) {
      timers.push(setInterval(() => {
        write('BOOKMARK', { apiVersion: apiVersionOf(t.type), kind: t.type.kind, metadata: { resourceVersion: String(Math.max(lastRv, this.store.currentRv())) } });
      }, this.bookmarkIntervalMs));
    }
    if (timeoutS !== undefined && timeoutS > 0) timers.push(setTimeout(() => stream.close(), timeoutS * 1000));
  }
}
