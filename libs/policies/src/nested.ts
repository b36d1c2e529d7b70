import { schemaProblems } from './ajv.js';
import type { NestedPorts } from './components/kind.js';
import { findMarked } from './markers.js';
import { indexPath, isJsonObject, memberPath } from './path.js';
import type { PolicyProblem } from './problems.js';
import type { InPort, OutPort } from './schema/ports.js';

/** One component of the circuit after nested circuits are inlined. */
export interface FlatComponent {
  /** The component, its signal names made unique to the (nested) circuit it belongs to. */
  component: Record<string, unknown>;
  /** `root.<i>`, `root.<i>.<j>` inside the nested circuit `root.<i>`, and so on. */
  id: string;
  /** The JSON path of the component object. */
  path: string;
  /** Inside a nested circuit: its port maps, in the enclosing circuit's signals. */
  nestedPorts?: NestedPorts;
}

const ROOT_LIST = 'spec.circuit.components';

/**
 * A signal of a nested circuit: `<its id>/<name>`. Signal names cannot hold `/`, so a nested
 * circuit's signals never meet the enclosing circuit's except through its port maps.
 */
export function scopedSignal(scope: string | undefined, name: string): string {
  return scope === undefined ? name : `${scope}/${name}`;
}

function scopedPorts(value: unknown, scope: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => scopedPorts(v, scope));
  if (!isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === 'signal_name' && typeof v === 'string' ? scopedSignal(scope, v) : scopedPorts(v, scope);
  return out;
}

/** A copy of `component` whose port signal names (under `in_ports` and `out_ports`) are scoped; nested lists are left as they are. */
function scopedComponent(value: unknown, scope: string | undefined): unknown {
  if (scope === undefined || !isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === 'in_ports' || k === 'out_ports' ? scopedPorts(v, scope) : k === 'components' ? v : scopedComponent(v, scope);
  }
  return out;
}

/** Problems of a nested list, checked as a circuit's list is, with their paths moved under `listPath`. */
function nestedListProblems(list: unknown[], listPath: string, ignored: string[]): PolicyProblem[] {
  const sub = { circuit: { components: list } };
  const move = (path: string) => (path.startsWith(ROOT_LIST) ? listPath + path.slice(ROOT_LIST.length) : path);
  const marked = findMarked(sub);
  ignored.push(...marked.ignored.map(move));
  return [...marked.unsupported, ...schemaProblems(sub)].map((p) => ({ path: move(p.path), message: p.message }));
}

/**
 * The circuit's components with nested circuits inlined in place (each nested circuit is followed
 * by its components), and the problems of the nested lists: their schema, unknown port names, a
 * port name used twice. `ignored` receives the paths of inert parts inside nested circuits.
 */
export function flattenCircuit(components: readonly Record<string, unknown>[], problems: PolicyProblem[], ignored: string[]): FlatComponent[] {
  const flat: FlatComponent[] = [];
  const walk = (list: readonly unknown[], idPrefix: string, listPath: string, scope: string | undefined, nestedPorts: NestedPorts | undefined) => {
    list.forEach((raw, i) => {
      if (!isJsonObject(raw)) return;
      const id = `${idPrefix}.${i}`;
      const path = indexPath(listPath, i);
      flat.push({ component: scopedComponent(raw, scope) as Record<string, unknown>, id, path, ...(nestedPorts === undefined ? {} : { nestedPorts }) });
      const nc = raw.nested_circuit;
      if (!isJsonObject(nc)) return;
      const ncPath = memberPath(path, 'nested_circuit');
      const inner = Array.isArray(nc.components) ? (nc.components as unknown[]) : [];
      const innerPath = memberPath(ncPath, 'components');
      const listProblems = nestedListProblems(inner, innerPath, ignored);
      problems.push(...listProblems);
      if (listProblems.length > 0) return;
      const ports: { in: Map<string, { port: InPort; path: string }>; out: Map<string, { port: OutPort; path: string }> } = { in: new Map(), out: new Map() };
      for (const [dir, key] of [['in', 'in_ports_map'], ['out', 'out_ports_map']] as const) {
        const m = nc[key];
        if (!isJsonObject(m)) continue;
        for (const [name, port] of Object.entries(m)) {
          (ports[dir] as Map<string, { port: unknown; path: string }>).set(name, { port: scopedPorts(port, scope), path: memberPath(memberPath(ncPath, key), name) });
        }
      }
      // Each port name belongs to one ingress (or egress) inside, and each map entry needs one.
      for (const [dir, kind] of [['in', 'nested_signal_ingress'], ['out', 'nested_signal_egress']] as const) {
        const seen = new Map<string, string>();
        inner.forEach((c, j) => {
          const part = isJsonObject(c) ? c[kind] : undefined;
          if (!isJsonObject(part) || typeof part.port_name !== 'string') return;
          const at = memberPath(memberPath(indexPath(innerPath, j), kind), 'port_name');
          const first = seen.get(part.port_name);
          if (first !== undefined) problems.push({ path: at, message: `port ${JSON.stringify(part.port_name)} is already used by ${first}` });
          else seen.set(part.port_name, at);
        });
        for (const [name, entry] of ports[dir]) {
          if (!seen.has(name)) problems.push({ path: entry.path, message: `no ${kind} inside the nested circuit has port_name ${JSON.stringify(name)}` });
        }
      }
      walk(inner, id, innerPath, id, ports);
    });
  };
  walk(components, 'root', ROOT_LIST, undefined, undefined);
  return flat;
}
