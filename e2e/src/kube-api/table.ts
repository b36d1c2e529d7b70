// meta.k8s.io/v1 Table answers (what `kubectl get` asks for): Name, the CRD's
// additionalPrinterColumns (a simple JSONPath subset: `.a.b`, `.a[0]`,
// `.a[?(@.type=="Ready")].status`) or Age, with dates shown as ages as the server does.
import type { KubeObject } from './store.js';
import type { PrinterColumn, ResourceType } from './resource-types.js';

type Step = { field: string } | { index: number } | { filterKey: string; filterValue: string };

function parsePath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  const re = /\.([A-Za-z0-9_-]+)|\[(\d+)\]|\[\?\(@\.([A-Za-z0-9_-]+)\s*==\s*["']([^"']*)["']\)\]/y;
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  re.lastIndex = 0;
  while (re.lastIndex < p.length) {
    const m = re.exec(p);
    if (!m) return undefined;
    if (m[1] !== undefined) steps.push({ field: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else steps.push({ filterKey: m[3], filterValue: m[4] });
  }
  return steps;
}

export function evalJsonPath(obj: unknown, path: string): unknown {
  const steps = parsePath(path);
  if (!steps) return undefined;
  let cur: unknown = obj;
  for (const s of steps) {
    if (cur === null || cur === undefined) return undefined;
    if ('field' in s) cur = typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, unknown>)[s.field] : undefined;
    else if ('index' in s) cur = Array.isArray(cur) ? cur[s.index] : undefined;
    else cur = Array.isArray(cur) ? cur.find((el) => el && typeof el === 'object' && String((el as Record<string, unknown>)[s.filterKey]) === s.filterValue) : undefined;
  }
  return cur;
}

/** `5s`, `3m`, `2h`, `4d`, as kubectl shows ages. */
export function humanAge(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '<invalid>';
  const s = Math.max(0, Math.floor((now - t) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.floor(h / 24)}d`;
}

function cell(col: PrinterColumn, obj: KubeObject): unknown {
  const v = evalJsonPath(obj, col.jsonPath);
  if (v === undefined || v === null) return null;
  if (col.type === 'date' && typeof v === 'string') return humanAge(v);
  if (col.type === 'integer' || col.type === 'number' || col.type === 'boolean') return v;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

interface ComputedColumn {
  name: string;
  type: string;
  priority?: number;
  value(obj: KubeObject): unknown;
}

function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** The columns the real server prints for a few built-in kinds (the rest get Name and Age). */
const BUILT_IN_COLUMNS: Record<string, ComputedColumn[]> = {
  '/events': [
    { name: 'Last Seen', type: 'string', value: (o) => humanAge(str(o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp)) },
    { name: 'Type', type: 'string', value: (o) => str(o.type) },
    { name: 'Reason', type: 'string', value: (o) => str(o.reason) },
    { name: 'Object', type: 'string', value: (o) => { const io = (o.involvedObject ?? {}) as { kind?: string; name?: string }; return `${str(io.kind).toLowerCase()}/${str(io.name)}`; } },
    { name: 'Message', type: 'string', value: (o) => str(o.message) },
  ],
  'events.k8s.io/events': [
    { name: 'Last Seen', type: 'string', value: (o) => humanAge(str(o.eventTime ?? o.metadata.creationTimestamp)) },
    { name: 'Type', type: 'string', value: (o) => str(o.type) },
    { name: 'Reason', type: 'string', value: (o) => str(o.reason) },
    { name: 'Object', type: 'string', value: (o) => { const r = (o.regarding ?? {}) as { kind?: string; name?: string }; return `${str(r.kind).toLowerCase()}/${str(r.name)}`; } },
    { name: 'Message', type: 'string', value: (o) => str(o.note) },
  ],
  '/services': [
    { name: 'Type', type: 'string', value: (o) => str((o.spec as { type?: string } | undefined)?.type ?? 'ClusterIP') },
    { name: 'Cluster-IP', type: 'string', value: (o) => str((o.spec as { clusterIP?: string } | undefined)?.clusterIP) },
    { name: 'Ports', type: 'string', value: (o) => ((o.spec as { ports?: { port?: number; protocol?: string }[] } | undefined)?.ports ?? []).map((p) => `${str(p.port)}/${p.protocol ?? 'TCP'}`).join(',') },
    { name: 'Age', type: 'string', value: (o) => humanAge(o.metadata.creationTimestamp) },
  ],
  'discovery.k8s.io/endpointslices': [
    { name: 'AddressType', type: 'string', value: (o) => str(o.addressType) },
    { name: 'Ports', type: 'string', value: (o) => ((o.ports as { port?: number }[] | undefined) ?? []).map((p) => str(p.port)).join(',') || '<unset>' },
    { name: 'Endpoints', type: 'string', value: (o) => ((o.endpoints as { addresses?: string[] }[] | undefined) ?? []).flatMap((e) => e.addresses ?? []).join(',') || '<unset>' },
    { name: 'Age', type: 'string', value: (o) => humanAge(o.metadata.creationTimestamp) },
  ],
  'apps/deployments': [
    { name: 'Ready', type: 'string', value: (o) => { const s = (o.status ?? {}) as { readyReplicas?: number }; return `${s.readyReplicas ?? 0}/${str((o.spec as { replicas?: number } | undefined)?.replicas ?? 1)}`; } },
    { name: 'Age', type: 'string', value: (o) => humanAge(o.metadata.creationTimestamp) },
  ],
  '/pods': [
    { name: 'Status', type: 'string', value: (o) => str((o.status as { phase?: string } | undefined)?.phase ?? 'Pending') },
    { name: 'IP', type: 'string', priority: 1, value: (o) => str((o.status as { podIP?: string } | undefined)?.podIP) },
    { name: 'Node', type: 'string', priority: 1, value: (o) => str((o.spec as { nodeName?: string } | undefined)?.nodeName) },
    { name: 'Age', type: 'string', value: (o) => humanAge(o.metadata.creationTimestamp) },
  ],
};

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' };

export function toTable(t: ResourceType, items: KubeObject[], listMeta: Record<string, unknown>, includeObject: string | null): unknown {
  const fromCrd = t.printerColumns.length > 0 ? t.printerColumns : t.builtIn ? undefined : [AGE];
  const columns: ComputedColumn[] = fromCrd
    ? fromCrd.map((c) => ({ name: c.name, type: c.type, priority: c.priority, value: (o: KubeObject) => cell(c, o) }))
    : BUILT_IN_COLUMNS[`${t.group}/${t.resource}`] ?? [{ name: AGE.name, type: 'string', value: (o: KubeObject) => cell(AGE, o) }];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
      ...columns.map((c) => ({ name: c.name, type: c.type, format: '', description: '', priority: c.priority ?? 0 })),
    ],
    rows: items.map((obj) => {
      const row: Record<string, unknown> = { cells: [obj.metadata.name, ...columns.map((c) => c.value(obj))] };
      if (includeObject === 'Object') row.object = obj;
      else if (includeObject !== 'None') row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
      return row;
    }),
  };
}

export function wantsTable(accept: string | undefined): boolean {
  return accept !== undefined && /as=Table/.test(accept);
}
