// Field selectors (`metadata.name=x,spec.nodeName!=y`) for the fields the real
// API server supports per resource; any other field is a 400 as there.
import { badRequest } from './api-error.js';

export type FieldMatcher = (obj: KubeObjectLike) => boolean;

export interface KubeObjectLike {
  metadata?: { name?: string; namespace?: string };
  [key: string]: unknown;
}

const COMMON = ['metadata.name', 'metadata.namespace'];

/** Fields selectable beyond metadata.name/namespace, by `<group>/<resource>`. */
const EXTRA: Record<string, string[]> = {
  '/pods': ['spec.nodeName', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.podIP', 'status.nominatedNodeName', 'spec.restartPolicy'],
  '/events': ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  'events.k8s.io/events': ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'reason', 'type'],
  '/secrets': ['type'],
  '/namespaces': ['status.phase'],
  '/nodes': ['spec.unschedulable'],
  'apps/replicasets': ['status.replicas'],
};

function valueAt(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'string' ? cur : String(cur);
}

export function parseFieldSelector(group: string, resource: string, selector: string | undefined | null): FieldMatcher {
  if (selector === undefined || selector === null || selector.trim() === '') return () => true;
  const allowed = new Set([...COMMON, ...(EXTRA[`${group}/${resource}`] ?? [])]);
  const reqs: { field: string; value: string; neq: boolean }[] = [];
  for (const term of selector.split(',')) {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (!m) throw badRequest(`invalid field selector: "${term}"`);
    if (!allowed.has(m[1])) throw badRequest(`field label not supported: ${m[1]}`);
    reqs.push({ field: m[1], value: m[3], neq: m[2] === '!=' });
  }
  return (obj) => reqs.every((r) => (valueAt(obj, r.field) === r.value) !== r.neq);
}
