// Validating admission webhooks of the test API server: on a create or update of a resource a
// ValidatingWebhookConfiguration's webhook matches (admission-match.ts), an AdmissionReview
// (admission.k8s.io/v1) is POSTed to the webhook's `clientConfig.url`, or to its
// `clientConfig.service` (https, the Service's port resolved to an endpoint of its
// EndpointSlices, the certificate checked against `caBundle` for `<service>.<namespace>.svc`),
// within `timeoutSeconds` (default 10). A denial is the webhook's status code (403 when it gives
// none) with "admission webhook "<name>" denied the request: <message>"; a webhook that cannot be
// called or answers nonsense fails the write (500) under failurePolicy Fail (the default) and
// is skipped under Ignore. Matching webhooks are called in parallel; their warnings are returned.
import { randomUUID } from 'node:crypto';
import http, { type ServerResponse } from 'node:http';
import https from 'node:https';
import { ApiError, type StatusReason } from './api-error.js';
import { webhookMatches, type AdmissionAttempt } from './admission-match.js';
import { isObject } from './object-fields.js';
import { apiVersionOf } from './resource-types.js';
import type { Store } from './store.js';

type Obj = Record<string, unknown>;

export const VALIDATING_WEBHOOKS_GR = 'admissionregistration.k8s.io/validatingwebhookconfigurations';
const DEFAULT_TIMEOUT_S = 10;
const MAX_ANSWER_BYTES = 3 * 1024 * 1024;

/** A webhook that could not be called or answered something unusable. */
class CallError extends Error {}

interface Target { url: URL; ca?: string; servername?: string; shown?: string }

export class ValidatingAdmission {
  constructor(private readonly store: Store) {}

  /** The server's write path: calls the webhooks, puts their warnings on `res`; true when any configuration exists (the store may have changed meanwhile). */
  async onWrite(res: ServerResponse | undefined, a: AdmissionAttempt): Promise<boolean> {
    if (this.store.list(VALIDATING_WEBHOOKS_GR).length === 0) return false;
    const warnings = await this.admit(a);
    if (res && warnings.length > 0) res.setHeader('Warning', warnings.map(warningHeader));
    return true;
  }

  /** Calls every matching webhook; resolves with their warnings, throws the ApiError of a denial or a failure. */
  async admit(a: AdmissionAttempt): Promise<string[]> {
    const hooks: Obj[] = [];
    for (const cfg of this.store.list(VALIDATING_WEBHOOKS_GR)) {
      for (const w of Array.isArray(cfg.webhooks) ? cfg.webhooks : []) {
        if (isObject(w) && webhookMatches(w, a, (ns) => this.store.get('/namespaces', undefined, ns)?.metadata.labels)) hooks.push(w);
      }
    }
    if (hooks.length === 0) return [];
    const answers = await Promise.all(hooks.map((w) => this.call(w, a).then((r) => ({ w, r }), (err: unknown) => ({ w, err }))));
    const warnings: string[] = [];
    for (const x of answers) {
      const name = String(x.w.name);
      if ('err' in x) {
        if (x.w.failurePolicy === 'Ignore') continue;
        const message = x.err instanceof Error ? x.err.message : String(x.err);
        throw new ApiError(500, 'InternalError', `Internal error occurred: failed calling webhook "${name}": ${message}`);
      }
      warnings.push(...x.r.warnings);
      if (!x.r.allowed) {
        const s = x.r.status;
        const code = typeof s.code === 'number' && s.code >= 400 ? s.code : 403;
        // The webhook's reason is passed through as the real server does.
        const reason = (typeof s.reason === 'string' && s.reason !== '' ? s.reason : 'Forbidden') as StatusReason;
        const message = typeof s.message === 'string' && s.message !== '' ? s.message : 'without explanation';
        throw new ApiError(code, reason, `admission webhook "${name}" denied the request: ${message}`);
      }
    }
    return warnings;
  }

  private target(w: Obj): Target {
    const cc = isObject(w.clientConfig) ? w.clientConfig : {};
    const ca = typeof cc.caBundle === 'string' && cc.caBundle !== '' ? Buffer.from(cc.caBundle, 'base64').toString() : undefined;
    if (typeof cc.url === 'string') return { url: new URL(cc.url), ...(ca ? { ca } : {}) };
    if (!isObject(cc.service)) throw new CallError('failed to call webhook: clientConfig has neither url nor service');
    const { namespace, name } = cc.service as { namespace?: unknown; name?: unknown };
    const port = typeof cc.service.port === 'number' ? cc.service.port : 443;
    const path = typeof cc.service.path === 'string' ? cc.service.path : '/';
    const svc = this.store.get('/services', String(namespace), String(name));
    if (!svc) throw new CallError(`failed to call webhook: service "${String(name)}" not found`);
    const ports = (isObject(svc.spec) && Array.isArray(svc.spec.ports) ? svc.spec.ports : []).filter(isObject);
    const sp = ports.find((p) => p.port === port);
    if (!sp) throw new CallError(`failed to call webhook: service "${String(name)}" has no port ${port}`);
    const targetPort = sp.targetPort ?? port;
    for (const slice of this.store.list('discovery.k8s.io/endpointslices', String(namespace))) {
      if (slice.metadata.labels?.['kubernetes.io/service-name'] !== name) continue;
      const slicePorts = (Array.isArray(slice.ports) ? slice.ports : []).filter(isObject);
      const p = typeof targetPort === 'number' ? targetPort : slicePorts.find((x) => x.name === targetPort)?.port;
      const byName = slicePorts.find((x) => (x.name ?? '') === (sp.name ?? ''))?.port;
      const endpointPort = typeof byName === 'number' ? byName : p;
      const ready = (Array.isArray(slice.endpoints) ? slice.endpoints : []).filter(isObject).find((e) => !isObject(e.conditions) || e.conditions.ready !== false);
      const address = ready && Array.isArray(ready.addresses) ? ready.addresses[0] : undefined;
      if (typeof address === 'string' && typeof endpointPort === 'number') {
        const host = address.includes(':') ? `[${address}]` : address;
        const servername = `${String(name)}.${String(namespace)}.svc`;
        return { url: new URL(`https://${host}:${endpointPort}${path}`), servername, shown: `https://${servername}:${port}${path}`, ...(ca ? { ca } : {}) };
      }
    }
    throw new CallError(`failed to call webhook: no endpoints available for service "${String(name)}"`);
  }

  private async call(w: Obj, a: AdmissionAttempt): Promise<{ allowed: boolean; status: Obj; warnings: string[] }> {
    const versions = Array.isArray(w.admissionReviewVersions) ? w.admissionReviewVersions : ['v1'];
    if (!versions.includes('v1')) throw new CallError('failed to call webhook: admissionReviewVersions does not include v1');
    if (a.dryRun && w.sideEffects !== 'None' && w.sideEffects !== 'NoneOnDryRun') throw new CallError('the webhook has side effects and the request is a dry run');
    const t = this.target(w);
    const timeoutS = typeof w.timeoutSeconds === 'number' ? w.timeoutSeconds : DEFAULT_TIMEOUT_S;
    const uid = randomUUID();
    const gvk = { group: a.type.group, version: a.type.version, kind: a.type.kind };
    const gvr = { group: a.type.group, version: a.type.version, resource: a.type.resource };
    const review = {
      apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
      request: {
        uid, kind: gvk, resource: gvr, requestKind: gvk, requestResource: gvr, ...(a.subResource ? { subResource: a.subResource, requestSubResource: a.subResource } : {}),
        name: a.object.metadata.name, ...(a.namespace !== undefined ? { namespace: a.namespace } : {}), operation: a.operation,
        userInfo: { username: 'sluice-test', groups: ['system:masters', 'system:authenticated'] },
        object: { ...a.object, apiVersion: apiVersionOf(a.type), kind: a.type.kind }, oldObject: a.oldObject ?? null, dryRun: a.dryRun,
        options: { apiVersion: 'meta.k8s.io/v1', kind: a.operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions' },
      },
    };
    t.url.searchParams.set('timeout', `${timeoutS}s`);
    const text = await post(t, JSON.stringify(review), timeoutS * 1000);
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new CallError(`failed to call webhook: the answer is not JSON`);
    }
    const r = isObject(answer) ? answer.response : undefined;
    if (!isObject(answer) || answer.kind !== 'AdmissionReview' || !isObject(r)) throw new CallError('failed to call webhook: the answer is not an AdmissionReview');
    if (r.uid !== uid) throw new CallError(`expected response.uid="${uid}", got "${String(r.uid)}"`);
    if (typeof r.allowed !== 'boolean') throw new CallError('failed to call webhook: response.allowed is missing');
    return { allowed: r.allowed, status: isObject(r.status) ? r.status : {}, warnings: Array.isArray(r.warnings) ? r.warnings.filter((x): x is string => typeof x === 'string') : [] };
  }
}

function post(t: Target, body: string, timeoutMs: number): Promise<string> {
  const where = `Post "${t.shown === undefined ? t.url.href : `${t.shown}${t.url.search}`}"`;
  return new Promise((resolve, reject) => {
    const opts = { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs };
    const req = t.url.protocol === 'https:'
      ? https.request(t.url, { ...opts, ...(t.ca ? { ca: t.ca } : {}), ...(t.servername ? { servername: t.servername } : {}) })
      : http.request(t.url, opts);
    const timer = setTimeout(() => req.destroy(new CallError(`failed to call webhook: ${where}: context deadline exceeded`)), timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) req.destroy(new CallError(`failed to call webhook: ${where}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) reject(new CallError(`failed to call webhook: ${where}: the server answered ${String(res.statusCode)}: ${text.slice(0, 200)}`));
        else resolve(text);
      });
      res.on('error', (err) => { clearTimeout(timer); reject(err); });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof CallError ? err : new CallError(`failed to call webhook: ${where}: ${err.message}`));
    });
    req.end(body);
  });
}

/** A `Warning` header value as the API server writes it (kubectl prints `Warning: <text>`). */
export function warningHeader(text: string): string {
  return `299 - "${text.replace(/["\\]/g, '\\$&')}"`;
}
