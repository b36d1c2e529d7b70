// A test double of the Kubernetes API server's protocol (HTTP on loopback), for what Sluice and
// kubectl use: discovery, /version, a minimal OpenAPI, CRDs, CRUD of built-in and custom
// resources with the status and scale subresources, merge/JSON/strategic patches, Tables for
// `kubectl get`, protobuf bodies of Secret, ConfigMap and DeleteOptions (helm's release storage),
// list/watch with resourceVersion, bookmarks, timeoutSeconds and 410 Gone, label and field
// selectors, validating admission webhooks (admission.ts). It is not a model of our code:
// @kubernetes/client-node and kubectl talk to it unchanged. Test hooks: expireHistory (410 on the next stale watch), dropWatches,
// stopServing/resumeServing (the API away), also as POST /_sluice/<hook>.
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ValidatingAdmission } from './admission.js';
import { ApiError, alreadyExists, badRequest, conflict, invalid, notFound } from './api-error.js';
import { CrSchemas } from './cr-schema.js';
import { apiGroup, discoveryDocument, resourceList } from './discovery.js';
import { parseJson, readBody, send, sendText } from './http-io.js';
import { acceptsJson, jsonBody } from './protobuf.js';
import { select, serveList } from './list.js';
import { asServed, checkKind, grOf, isObject, metaForCompare, nowRfc3339, sameJson, specPart } from './object-fields.js';
import { applyPatch, type Json } from './patch.js';
import { apiVersionOf, type ResourceType } from './resource-types.js';
import { scaled, toScale } from './scale.js';
import { Store, type KubeObject } from './store.js';
import { parseTarget, type Target } from './target.js';
import { isCrd, TypeRegistry } from './type-registry.js';
import { Watches } from './watch.js';

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

export class KubeApiServer {
  private readonly store: Store;
  private readonly types: TypeRegistry;
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly watches: Watches;
  private port: number;
  private readonly host: string;
  private serving = false;
  private clusterIpNext = 1;
  private readonly schemas = new CrSchemas();
  private readonly admission: ValidatingAdmission;

  constructor(private readonly opts: KubeApiOptions = {}) {
    this.store = new Store(opts.historyLimit ?? 10_000);
    this.types = new TypeRegistry(this.store);
    this.admission = new ValidatingAdmission(this.store);
    this.watches = new Watches(this.store, opts.bookmarkIntervalMs ?? 1000);
    this.port = opts.port ?? 0;
    this.host = opts.host ?? '127.0.0.1';
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
    this.watches.closeAll();
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
    this.watches.closeAll();
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
      const read = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
      await this.route(req, res, url, jsonBody(req.method ?? 'GET', (req.headers['content-type'] ?? '').toLowerCase(), read));
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(500, 'InternalError', (err as Error).message);
      if (!res.headersSent) send(res, e.code, e.toStatus());
      else res.destroy();
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> {
    const p = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (p === '/healthz' || p === '/readyz' || p === '/livez') return sendText(res, 200, 'ok');
    if (p.startsWith('/_sluice/') && method === 'POST') return this.hook(res, p.slice('/_sluice/'.length));
    const doc = discoveryDocument(p, this.types.all(), `${this.host}:${this.port}`);
    if (doc !== undefined) return send(res, 200, doc);
    const segs = p.split('/').filter((s) => s !== '').map(decodeURIComponent);
    let group: string;
    let version: string;
    let rest: string[];
    if (segs[0] === 'api' && segs.length >= 2) {
      group = '';
      version = segs[1];
      rest = segs.slice(2);
    } else if (segs[0] === 'apis' && segs.length === 2) {
      return send(res, 200, apiGroup(this.types.all(), segs[1]));
    } else if (segs[0] === 'apis' && segs.length >= 3) {
      group = segs[1];
      version = segs[2];
      rest = segs.slice(3);
    } else throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    if (!acceptsJson(req.headers.accept)) throw new ApiError(406, 'NotAcceptable', `the test API server answers JSON only, not ${String(req.headers.accept)}: accept application/json too`);
    if (rest.length === 0) {
      if (method !== 'GET') throw new ApiError(405, 'MethodNotAllowed', 'method not allowed');
      return send(res, 200, resourceList(this.types.all(), group, version));
    }
    const target = parseTarget(this.types, group, version, rest, url);
    await this.serve(req, res, url, body, target);
  }

  private hook(res: ServerResponse, name: string): void {
    if (name === 'expire-history') this.expireHistory();
    else if (name === 'drop-watches') this.dropWatches();
    else throw notFound('', 'hooks', name);
    send(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 });
  }

  private async serve(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer, t: Target): Promise<void> {
    const method = req.method ?? 'GET';
    const { type } = t;
    const dryRun = url.searchParams.getAll('dryRun').includes('All');
    if (t.namespace !== undefined && method !== 'GET' && method !== 'DELETE' && !(t.type.group === '' && t.type.resource === 'namespaces')) this.requireNamespace(t.namespace);
    if (t.name === undefined) {
      if (method === 'GET' && t.watch) return this.watches.serve(req, res, url, t);
      if (method === 'GET') return serveList(this.store, req, res, url, t);
      if (method === 'POST') return send(res, 201, asServed(type, await this.create(type, t.namespace, parseJson(body), dryRun, res)));
      if (method === 'DELETE') return this.deleteCollection(res, url, t, dryRun);
      throw new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
    }
    if (t.watch) {
      url.searchParams.set('fieldSelector', `metadata.name=${t.name}`);
      return this.watches.serve(req, res, url, { ...t, name: undefined });
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
        return send(res, 200, asServed(type, this.mustGet(type, t.namespace, name)));
      case 'PUT':
        return send(res, 200, asServed(type, await this.update(type, t.namespace, name, parseJson(body), status, dryRun, res)));
      case 'PATCH': {
        const old = this.mustGet(type, t.namespace, name);
        const patched = applyPatch(req.headers['content-type'] ?? '', asServed(type, old) as unknown as Json, body, type.builtIn);
        if (!isObject(patched)) throw badRequest('the patch did not produce an object');
        return send(res, 200, asServed(type, await this.update(type, t.namespace, name, patched, status, dryRun, res)));
      }
      case 'DELETE':
        if (status) throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
        return send(res, 200, asServed(type, this.delete(type, t.namespace, name, body, dryRun)));
      default:
        throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    }
  }

  private requireNamespace(ns: string): void {
    const o = this.store.get('/namespaces', undefined, ns);
    if (!o) throw notFound('', 'namespaces', ns);
    if (o.metadata.deletionTimestamp) throw new ApiError(403, 'BadRequest', `namespace ${ns} is being terminated`);
  }

  private mustGet(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const o = this.store.get(grOf(type), namespace, name);
    if (!o) throw notFound(type.group, type.resource, name);
    return o;
  }

  // ---- writes ----

  private async create(type: ResourceType, namespace: string | undefined, raw: unknown, dryRun: boolean, res?: ServerResponse): Promise<KubeObject> {
    if (!isObject(raw)) throw badRequest('the body of the request is not an object');
    checkKind(type, raw);
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
    if (await this.admission.onWrite(res, { operation: 'CREATE', type, subResource: '', namespace: meta.namespace as string | undefined, object: obj, dryRun })) {
      if (this.store.get(grOf(type), meta.namespace as string | undefined, name)) throw alreadyExists(type.group, type.resource, name);
    }
    if (dryRun) return obj;
    const stored = this.store.put(grOf(type), obj);
    if (isCrd(type)) return this.types.establish(stored);
    return stored;
  }

  /** What admission and the built-in controllers would do at once: CRD checks, service cluster IPs, Secret type. */
  private admit(type: ResourceType, obj: KubeObject): void {
    if (isCrd(type)) this.types.checkCrd(type, obj);
    if (type.group === '' && type.resource === 'namespaces' && obj.status === undefined) obj.status = { phase: 'Active' };
    if (type.group === '' && type.resource === 'secrets' && (obj.type === undefined || obj.type === '')) obj.type = 'Opaque';
    if (type.group === '' && type.resource === 'services' && isObject(obj.spec)) {
      const spec = obj.spec as Record<string, unknown>;
      if (spec.type !== 'ExternalName' && spec.clusterIP === undefined) {
        const n = this.clusterIpNext++;
        spec.clusterIP = `10.96.${Math.floor(n / 250)}.${(n % 250) + 1}`;
        spec.clusterIPs = [spec.clusterIP];
      }
    }
  }

  private async update(type: ResourceType, namespace: string | undefined, name: string, raw: unknown, statusOnly: boolean, dryRun: boolean, res?: ServerResponse): Promise<KubeObject> {
    if (!isObject(raw)) throw badRequest('the body of the request is not an object');
    checkKind(type, raw);
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
    if (await this.admission.onWrite(res, { operation: 'UPDATE', type, subResource: statusOnly ? 'status' : '', namespace, object: next, oldObject: old, dryRun })) {
      if (this.store.get(grOf(type), namespace, name)?.metadata.resourceVersion !== old.metadata.resourceVersion) throw conflict(type.group, type.resource, name);
    }
    if (sameJson(metaForCompare(old), metaForCompare(next)) && sameJson(specPart(old, true), specPart(next, true))) return old;
    if (dryRun) return next;
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      return this.removeNow(type, next);
    }
    const stored = this.store.put(grOf(type), next);
    if (isCrd(type) && !statusOnly) return this.types.establish(stored);
    return stored;
  }

  private async scale(req: IncomingMessage, res: ServerResponse, body: Buffer, t: Target, name: string, dryRun: boolean): Promise<void> {
    const spec = t.type.scale;
    if (!spec) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const method = req.method ?? 'GET';
    const old = this.mustGet(t.type, t.namespace, name);
    if (method === 'GET') return send(res, 200, toScale(spec, old));
    if (method !== 'PUT' && method !== 'PATCH') throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    const next = method === 'PUT' ? parseJson(body) : applyPatch(req.headers['content-type'] ?? '', toScale(spec, old) as unknown as Json, body, true);
    const stored = await this.update(t.type, t.namespace, name, scaled(t.type, spec, old, next), false, dryRun, res);
    send(res, 200, toScale(spec, stored));
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
    if (isCrd(type)) this.types.forget(obj.metadata.name);
    if (type.group === '' && type.resource === 'namespaces') {
      const grs = new Set(this.types.all().filter((t) => t.namespaced).map(grOf));
      for (const gr of grs) for (const o of this.store.list(gr, obj.metadata.name)) this.store.remove(gr, o);
    }
    return this.store.remove(grOf(type), obj) ?? obj;
  }

  private deleteCollection(res: ServerResponse, url: URL, t: Target, dryRun: boolean): void {
    const items = select(this.store, t, url);
    const out = items.map((o) => (dryRun ? o : this.delete(t.type, o.metadata.namespace, o.metadata.name, Buffer.alloc(0), false)));
    send(res, 200, { apiVersion: apiVersionOf(t.type), kind: t.type.listKind, metadata: { resourceVersion: String(this.store.currentRv()) }, items: out.map((o) => asServed(t.type, o)) });
  }
}
