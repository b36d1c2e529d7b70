// Which validating webhooks a write goes to, as the real API server decides it: the webhook's
// `rules` (operations, apiGroups, apiVersions, resources with `*` and `<resource>/<subresource>`
// forms, scope), its `namespaceSelector` (on the labels of the object's namespace; of the object
// itself for a Namespace; cluster-scoped objects always match) and its `objectSelector` (on the
// object's labels, or the old object's on an update). matchPolicy is taken as Exact.
import { isObject } from './object-fields.js';
import type { ResourceType } from './resource-types.js';
import type { KubeObject } from './store.js';

type Obj = Record<string, unknown>;

/** One write as admission sees it. */
export interface AdmissionAttempt {
  operation: 'CREATE' | 'UPDATE';
  type: ResourceType;
  /** '' for the resource itself, e.g. 'status'. */
  subResource: string;
  namespace: string | undefined;
  object: KubeObject;
  oldObject?: KubeObject;
  dryRun: boolean;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const has = (list: string[], value: string): boolean => list.includes('*') || list.includes(value);

function resourceMatches(entries: string[], resource: string, sub: string): boolean {
  return entries.some((e) => {
    if (e === '*/*') return true;
    const [r, s] = e.split('/', 2) as [string, string | undefined];
    if (s === undefined) return sub === '' && (r === '*' || r === resource);
    return (r === '*' || r === resource) && (s === '*' || s === sub);
  });
}

function ruleMatches(rule: unknown, a: AdmissionAttempt): boolean {
  if (!isObject(rule)) return false;
  const scope = typeof rule.scope === 'string' ? rule.scope : '*';
  if (scope === 'Namespaced' && !a.type.namespaced) return false;
  if (scope === 'Cluster' && a.type.namespaced) return false;
  return has(strings(rule.operations), a.operation) && has(strings(rule.apiGroups), a.type.group)
    && has(strings(rule.apiVersions), a.type.version) && resourceMatches(strings(rule.resources), a.type.resource, a.subResource);
}

/** A metav1.LabelSelector (matchLabels, matchExpressions) against labels; absent or empty matches everything. */
export function selectorMatches(selector: unknown, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (!isObject(selector)) return true;
  const l = labels ?? {};
  if (isObject(selector.matchLabels)) {
    for (const [k, v] of Object.entries(selector.matchLabels)) if (l[k] !== v) return false;
  }
  for (const e of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    if (!isObject(e) || typeof e.key !== 'string') return false;
    const present = Object.hasOwn(l, e.key);
    const values = strings(e.values);
    switch (e.operator) {
      case 'In': if (!present || !values.includes(l[e.key])) return false; break;
      case 'NotIn': if (present && values.includes(l[e.key])) return false; break;
      case 'Exists': if (!present) return false; break;
      case 'DoesNotExist': if (present) return false; break;
      default: return false;
    }
  }
  return true;
}

/** True when `webhook` (one entry of a ValidatingWebhookConfiguration's `webhooks`) is called for `a`. */
export function webhookMatches(webhook: Obj, a: AdmissionAttempt, namespaceLabels: (ns: string) => Record<string, string> | undefined): boolean {
  if (!(Array.isArray(webhook.rules) ? webhook.rules : []).some((r) => ruleMatches(r, a))) return false;
  const isNamespace = a.type.group === '' && a.type.resource === 'namespaces';
  if (isNamespace) {
    if (!selectorMatches(webhook.namespaceSelector, a.object.metadata.labels)) return false;
  } else if (a.type.namespaced && a.namespace !== undefined) {
    if (!selectorMatches(webhook.namespaceSelector, namespaceLabels(a.namespace))) return false;
  }
  return selectorMatches(webhook.objectSelector, a.object.metadata.labels)
    || (a.oldObject !== undefined && selectorMatches(webhook.objectSelector, a.oldObject.metadata.labels));
}
