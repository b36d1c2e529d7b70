import type { PolicyProblem } from './problems.js';

export interface GraphInput {
  path: string;
  signal?: string;
}

export interface GraphNode {
  id: string;
  path: string;
  inputs: readonly GraphInput[];
  outputs: readonly { path: string; signal: string }[];
  /** Its outputs are known at the start of a tick (ComponentKind.delaysOutputs): its readers need not wait for it. */
  delaysOutputs?: boolean;
  /** It keeps state from tick to tick (ComponentKind.keepsState): a loop through it is run, not refused. */
  keepsState?: boolean;
}

interface Edge {
  from: number;
  to: number;
  signal: string;
}

/** Evaluation order by Kahn's algorithm over `edges`, always taking the lowest ready index; `stuck` holds the nodes left in or behind a cycle. */
function kahn(count: number, edges: readonly Edge[]): { order: number[]; stuck: Set<number> } {
  const readers: number[][] = Array.from({ length: count }, () => []);
  const pending = new Array<number>(count).fill(0);
  for (const e of edges) {
    readers[e.from].push(e.to);
    pending[e.to]++;
  }
  const order: number[] = [];
  const ready = new Set<number>([...pending.keys()].filter((i) => pending[i] === 0));
  while (ready.size > 0) {
    const next = Math.min(...ready);
    ready.delete(next);
    order.push(next);
    for (const r of readers[next]) if (--pending[r] === 0) ready.add(r);
  }
  return { order, stuck: new Set([...pending.keys()].filter((i) => pending[i] > 0)) };
}

/** One problem per cycle found among the stuck nodes (walking back along `edges`), named from its lowest index. */
function cycleProblems(nodes: readonly GraphNode[], edges: readonly Edge[], stuck: ReadonlySet<number>): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  const writersOf = new Map<number, number[]>();
  for (const e of edges) if (stuck.has(e.from) && stuck.has(e.to)) writersOf.set(e.to, [...(writersOf.get(e.to) ?? []), e.from]);
  const reported = new Set<number>();
  for (const start of stuck) {
    if (reported.has(start)) continue;
    const seen = new Map<number, number>();
    const trail: number[] = [];
    let at: number | undefined = start;
    while (at !== undefined && !seen.has(at)) {
      seen.set(at, trail.length);
      trail.push(at);
      at = writersOf.get(at)?.[0];
    }
    if (at === undefined) continue;
    const cycle = trail.slice(seen.get(at)).reverse();
    if (cycle.some((n) => reported.has(n))) continue;
    for (const n of cycle) reported.add(n);
    const first = Math.min(...cycle);
    cycle.push(...cycle.splice(0, cycle.indexOf(first))); // from its lowest index: one cycle reads the same wherever the walk entered it
    const names = [...cycle, cycle[0]].map((n) => nodes[n].id).join(' → ');
    problems.push({
      path: nodes[first].path,
      message:
        `the signals form a cycle (${names}) through no component that keeps state; Sluice refuses such a cycle ` +
        '(Aperture would feed one of its components a value one tick late, which one depending on the order of the list)',
    });
  }
  return problems;
}

/** The strongly connected components of more than one node, or of one node reading itself (Tarjan's algorithm). */
function loops(count: number, edges: readonly Edge[]): number[][] {
  const next: number[][] = Array.from({ length: count }, () => []);
  for (const e of edges) next[e.from].push(e.to);
  const index = new Array<number>(count).fill(-1);
  const low = new Array<number>(count).fill(0);
  const onStack = new Array<boolean>(count).fill(false);
  const stack: number[] = [];
  const found: number[][] = [];
  let counter = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    // Depth first without recursion: frames of (node, next successor to visit).
    const frames: [number, number][] = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = true;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const [v, i] = frame;
      if (i < next[v].length) {
        frame[1]++;
        const w = next[v][i];
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = true;
          frames.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1][0];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === index[v]) {
        const scc: number[] = [];
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = false;
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || next[v].includes(v)) found.push(scc);
      }
    }
  }
  return found;
}

/**
 * Checks the signal graph and orders it. Every signal read needs exactly one writer. An edge out of a
 * node whose outputs are known at the start of a tick (`delaysOutputs`) orders nothing, so no loop
 * passes through it. Other loops run as Aperture runs them, when each passes through a node that keeps
 * state (`keepsState`): in every loop (strongly connected part) the node earliest in the list reads
 * the signals its loop partners write from the previous tick (`late`; invalid at the first tick), until
 * no loop is left. A loop through stateless nodes only is refused, naming it. Answers the evaluation
 * order (node indices, ties by index), the late inputs by node, or the problems.
 */
export function orderGraph(nodes: readonly GraphNode[]): { order: number[]; late: Map<number, Set<string>>; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const late = new Map<number, Set<string>>();
  const writer = new Map<string, { node: number; path: string }>();
  nodes.forEach((node, i) => {
    for (const out of node.outputs) {
      const first = writer.get(out.signal);
      if (first !== undefined) {
        problems.push({ path: out.path, message: `signal ${JSON.stringify(out.signal)} is already written by ${first.path}; a signal has exactly one writer` });
      } else writer.set(out.signal, { node: i, path: out.path });
    }
  });
  const edges: Edge[] = [];
  nodes.forEach((node, i) => {
    const seen = new Set<string>();
    for (const input of node.inputs) {
      if (input.signal === undefined) continue;
      const w = writer.get(input.signal);
      if (w === undefined) {
        problems.push({ path: input.path, message: `signal ${JSON.stringify(input.signal)} is read but no component writes it` });
      } else if (nodes[w.node].delaysOutputs !== true && !seen.has(input.signal)) {
        seen.add(input.signal);
        edges.push({ from: w.node, to: i, signal: input.signal });
      }
    }
  });
  // A loop with no state in it: refused.
  const stateless = edges.filter((e) => nodes[e.from].keepsState !== true && nodes[e.to].keepsState !== true);
  const { stuck } = kahn(nodes.length, stateless);
  if (stuck.size > 0) problems.push(...cycleProblems(nodes, stateless, stuck));
  if (problems.length > 0) return { order: [], late, problems };
  // Loops through state: broken as Aperture breaks them.
  let live = edges;
  for (let found = loops(nodes.length, live); found.length > 0; found = loops(nodes.length, live)) {
    const cut = new Set<Edge>();
    for (const scc of found) {
      const members = new Set(scc);
      const earliest = Math.min(...scc);
      for (const e of live) {
        if (e.to !== earliest || !members.has(e.from)) continue;
        cut.add(e);
        let signals = late.get(earliest);
        if (signals === undefined) late.set(earliest, (signals = new Set()));
        signals.add(e.signal);
      }
    }
    live = live.filter((e) => !cut.has(e));
  }
  return { order: kahn(nodes.length, live).order, late, problems };
}
