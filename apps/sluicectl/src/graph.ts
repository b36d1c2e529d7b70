import { policyGraph, type PolicyGraphNode, type PolicyProblem } from '@sluice/policies';

/** A signal between components: its writer (undefined: nobody writes it) and a reader (undefined: nobody reads it). */
export interface SignalEdge {
  signal: string;
  from?: string;
  to?: string;
  /** A problem the compiler found on this signal (it is drawn marked). */
  problem?: string;
}

export interface CircuitPicture {
  nodes: PolicyGraphNode[];
  edges: SignalEdge[];
  problems: PolicyProblem[];
}

/** The circuit of a spec: components, the signals between them, dangling ones included, and every problem. */
export function circuitPicture(name: string, spec: unknown): CircuitPicture {
  const { nodes, problems } = policyGraph(name, spec);
  const problemAt = (path: string): string | undefined => problems.find((p) => p.path === path)?.message;
  const writers = new Map<string, PolicyGraphNode>();
  for (const n of nodes) for (const o of n.outputs) if (!writers.has(o.signal)) writers.set(o.signal, n);
  const read = new Set<string>();
  const edges: SignalEdge[] = [];
  for (const n of nodes) {
    for (const input of n.inputs) {
      if (input.signal === undefined) continue;
      read.add(input.signal);
      const w = writers.get(input.signal);
      const problem = problemAt(input.path);
      edges.push({ signal: input.signal, from: w?.id, to: n.id, ...(problem !== undefined ? { problem } : {}) });
    }
  }
  for (const n of nodes) {
    for (const o of n.outputs) {
      const problem = problemAt(o.path);
      if (!read.has(o.signal) || problem !== undefined) edges.push({ signal: o.signal, from: n.id, ...(problem !== undefined ? { problem } : {}) });
    }
  }
  return { nodes, edges, problems };
}

const mermaidText = (s: string): string => s.replace(/"/g, '#quot;');
const nodeId = (id: string): string => `c_${id.replace(/[^A-Za-z0-9_]/g, '_')}`;

/** A Mermaid flowchart: components as boxes, signals as labelled edges; signals with no writer or a problem dashed and red, unread ones dashed and grey. */
export function toMermaid(p: CircuitPicture): string {
  const lines = ['flowchart LR'];
  for (const n of p.nodes) lines.push(`  ${nodeId(n.id)}["${mermaidText(`${n.id}<br/>${n.kind}`)}"]`);
  p.edges.forEach((e, i) => {
    const label = `|"${mermaidText(e.signal)}"|`;
    if (e.from !== undefined && e.to !== undefined && e.problem === undefined) {
      lines.push(`  ${nodeId(e.from)} -->${label} ${nodeId(e.to)}`);
      return;
    }
    const unread = e.to === undefined && e.problem === undefined;
    const loose = `s${i}(["${mermaidText(e.from === undefined ? `${e.signal}: no writer` : unread ? `${e.signal}: unread` : e.signal)}"]):::${unread ? 'unread' : 'problem'}`;
    if (e.from === undefined) lines.push(`  ${loose} -.->${label} ${nodeId(e.to ?? '')}`);
    else if (e.to === undefined) lines.push(`  ${nodeId(e.from)} -.->${label} ${loose}`);
    else lines.push(`  ${nodeId(e.from)} -.->${label} ${nodeId(e.to)}`);
  });
  lines.push('  classDef problem stroke:#c00,color:#c00,stroke-dasharray:4');
  lines.push('  classDef unread stroke:#888,color:#888,stroke-dasharray:4');
  return `${lines.join('\n')}\n`;
}

const dotText = (s: string): string => JSON.stringify(s);

/** The same graph in Graphviz DOT. */
export function toDot(p: CircuitPicture): string {
  const lines = ['digraph circuit {', '  rankdir=LR;', '  node [shape=box, fontname="Helvetica"];'];
  for (const n of p.nodes) lines.push(`  ${dotText(n.id)} [label=${dotText(`${n.id}\n${n.kind}`)}];`);
  p.edges.forEach((e, i) => {
    const unread = e.to === undefined && e.problem === undefined;
    const color = unread ? '#888888' : '#cc0000';
    const marked = e.problem !== undefined || e.from === undefined || e.to === undefined;
    const style = marked ? `, style=dashed, color="${color}", fontcolor="${color}"` : '';
    const loose = `s${i}`;
    if (e.from === undefined || e.to === undefined) {
      lines.push(`  ${loose} [shape=ellipse, style=dashed, color="${color}", label=${dotText(e.from === undefined ? `${e.signal}: no writer` : `${e.signal}: unread`)}];`);
    }
    lines.push(`  ${dotText(e.from ?? loose)} -> ${dotText(e.to ?? loose)} [label=${dotText(e.signal)}${style}];`);
  });
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
