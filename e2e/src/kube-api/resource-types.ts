// The kinds the test API server serves: a table of built-in kinds (a kind is a row, not code)
// plus the kinds that CustomResourceDefinitions add at run time.

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural, as in the URL. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** The status subresource: main writes keep the stored status, /status writes keep everything else. */
  status: boolean;
  /** The scale subresource (autoscaling/v1 Scale). */
  scale?: ScaleSpec;
  /** Built-in kinds take strategic merge patch; custom resources do not. */
  builtIn: boolean;
  printerColumns: PrinterColumn[];
  /** The openAPIV3Schema of a custom resource's version, when given. */
  schema?: unknown;
  /** The CRD that defines it (`<plural>.<group>`), for custom resources. */
  crd?: string;
}

export const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface Row {
  gv: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  status?: boolean;
  scale?: boolean;
  categories?: string[];
}

const ALL = ['all'];
const REPLICAS: ScaleSpec = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };

const BUILT_IN: Row[] = [
  { gv: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], status: true },
  { gv: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], status: true },
  { gv: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, shortNames: ['po'], status: true, categories: ALL },
  { gv: 'v1', resource: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'], status: true, categories: ALL },
  { gv: 'v1', resource: 'endpoints', kind: 'Endpoints', namespaced: true, shortNames: ['ep'] },
  { gv: 'v1', resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  { gv: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  { gv: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
  { gv: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'] },
  { gv: 'discovery.k8s.io/v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true },
  { gv: 'events.k8s.io/v1', resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  { gv: 'apps/v1', resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], status: true, scale: true, categories: ALL },
  { gv: 'apps/v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], status: true, scale: true, categories: ALL },
  { gv: 'apps/v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], status: true, scale: true, categories: ALL },
  { gv: 'apps/v1', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], status: true, categories: ALL },
  { gv: 'rbac.authorization.k8s.io/v1', resource: 'roles', kind: 'Role', namespaced: true },
  { gv: 'rbac.authorization.k8s.io/v1', resource: 'rolebindings', kind: 'RoleBinding', namespaced: true },
  { gv: 'rbac.authorization.k8s.io/v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false },
  { gv: 'rbac.authorization.k8s.io/v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
  { gv: 'policy/v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'], status: true },
  { gv: 'networking.k8s.io/v1', resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'] },
  { gv: 'admissionregistration.k8s.io/v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false },
  { gv: 'admissionregistration.k8s.io/v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false },
  { gv: 'coordination.k8s.io/v1', resource: 'leases', kind: 'Lease', namespaced: true },
  { gv: 'policy/v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'], status: true },
  { gv: 'apiextensions.k8s.io/v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'], status: true },
];

function splitGv(gv: string): { group: string; version: string } {
  const i = gv.indexOf('/');
  return i < 0 ? { group: '', version: gv } : { group: gv.slice(0, i), version: gv.slice(i + 1) };
}

export function builtInTypes(): ResourceType[] {
  return BUILT_IN.map((r) => ({
    ...splitGv(r.gv),
    resource: r.resource,
    singular: r.kind.toLowerCase(),
    kind: r.kind,
    listKind: `${r.kind}List`,
    namespaced: r.namespaced,
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    status: r.status ?? false,
    scale: r.scale ? REPLICAS : undefined,
    builtIn: true,
    printerColumns: [],
  }));
}

export function apiVersionOf(t: { group: string; version: string }): string {
  return t.group === '' ? t.version : `${t.group}/${t.version}`;
}

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  subresources?: { status?: object; scale?: ScaleSpec };
  additionalPrinterColumns?: PrinterColumn[];
  schema?: { openAPIV3Schema?: unknown };
}

export interface CrdLike {
  metadata?: { name?: string };
  spec?: {
    group?: string;
    scope?: string;
    names?: { plural?: string; singular?: string; kind?: string; listKind?: string; shortNames?: string[]; categories?: string[] };
    versions?: CrdVersion[];
  };
}

/** Checks what the real server checks before accepting a CRD; returns field problems. */
export function crdProblems(crd: CrdLike): { field: string; message: string }[] {
  const p: { field: string; message: string }[] = [];
  const s = crd.spec;
  if (!s) return [{ field: 'spec', message: 'Required value' }];
  const plural = s.names?.plural;
  if (!s.group || !s.group.includes('.')) p.push({ field: 'spec.group', message: `Invalid value: "${s.group ?? ''}": should be a domain with at least one dot` });
  if (!plural) p.push({ field: 'spec.names.plural', message: 'Required value' });
  if (!s.names?.kind) p.push({ field: 'spec.names.kind', message: 'Required value' });
  if (s.scope !== 'Namespaced' && s.scope !== 'Cluster') p.push({ field: 'spec.scope', message: `Unsupported value: "${s.scope ?? ''}": supported values: "Cluster", "Namespaced"` });
  if (!s.versions || s.versions.length === 0) p.push({ field: 'spec.versions', message: 'Invalid value: must have exactly one version marked as storage version' });
  else if (s.versions.filter((v) => v.storage).length !== 1) p.push({ field: 'spec.versions', message: 'Invalid value: must have exactly one version marked as storage version' });
  if (plural && s.group && crd.metadata?.name !== `${plural}.${s.group}`) p.push({ field: 'metadata.name', message: `Invalid value: "${crd.metadata?.name ?? ''}": must be spec.names.plural+"."+spec.group` });
  return p;
}

/** The served versions of a CRD as resource types. */
export function typesOfCrd(crd: CrdLike): ResourceType[] {
  const s = crd.spec ?? {};
  const names = s.names ?? {};
  const kind = names.kind ?? '';
  return (s.versions ?? []).filter((v) => v.served !== false && v.name).map((v) => ({
    group: s.group ?? '',
    version: v.name ?? '',
    resource: names.plural ?? '',
    singular: names.singular ?? kind.toLowerCase(),
    kind,
    listKind: names.listKind ?? `${kind}List`,
    namespaced: s.scope !== 'Cluster',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    status: v.subresources?.status !== undefined,
    scale: v.subresources?.scale,
    builtIn: false,
    printerColumns: v.additionalPrinterColumns ?? [],
    schema: v.schema?.openAPIV3Schema,
    crd: crd.metadata?.name,
  }));
}
