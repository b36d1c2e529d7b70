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

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' };

export function toTable(t: ResourceType, items: KubeObject[], listMeta: Record<string, unknown>, includeObject: string | null): unknown {
  const columns = t.printerColumns.length > 0 ? t.printerColumns : [AGE];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
      ...columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
    ],
    rows: items.map((obj) => {
      const row: Record<string, unknown> = { cells: [obj.metadata.name, ...columns.map((c) => cell(c, obj))] };
      if (includeObject === 'Object') row.object = obj;
      else if (includeObject !== 'None') row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
      return row;
    }),
  };
}

export function wantsTable(accept: string | undefined): boolean {
  return accept !== undefined && /as=Table/.test(accept);
}
