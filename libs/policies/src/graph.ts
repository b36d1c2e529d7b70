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
}

/**
 * Checks the signal graph and orders it. Every signal read needs exactly one
 * writer; a cycle is refused (Aperture would silently break it one tick late),
 * unless it passes through a node whose outputs are known at the start of a tick
 * (`delaysOutputs`: an edge out of it is no ordering constraint). Answers the evaluation order
 * (node indices, ties by index) or the problems.
 */
export function orderGraph(nodes: readonly GraphNode[]): { order: number[]; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const writer = new Map<string, { node: number; path: string }>();
  nodes.forEach((node, i) => {
    for (const out of node.outputs) {
      const first = writer.get(out.signal);
      if (first !== undefined) {
        problems.push({ path: out.path, message: `signal ${JSON.stringify(out.signal)} is already written by ${first.path}; a signal has exactly one writer` });
      } else writer.set(out.signal, { node: i, path: out.path });
    }
  });
  const readers: number[][] = nodes.map(() => []);
  const pending = nodes.map(() => 0);
  nodes.forEach((node, i) => {
    const from = new Set<number>();
    for (const input of node.inputs) {
      if (input.signal === undefined) continue;
      const w = writer.get(input.signal);
      if (w === undefined) {
        problems.push({ path: input.path, message: `signal ${JSON.stringify(input.signal)} is read but no component writes it` });
      } else from.add(w.node);
    }
    for (const w of from) {
      if (nodes[w].delaysOutputs === true) continue;
      readers[w].push(i);
      pending[i]++;
    }
  });
  // Kahn's algorithm, always taking the lowest ready index (a small graph: a linear scan is enough).
  const order: number[] = [];
  const ready = new Set<number>(nodes.map((_, i) => i).filter((i) => pending[i] === 0));
  while (ready.size > 0) {
    const next = Math.min(...ready);
    ready.delete(next);
    order.push(next);
    for (const r of readers[next]) if (--pending[r] === 0) ready.add(r);
  }
  if (order.length < nodes.length) {
    const stuck = new Set(nodes.map((_, i) => i).filter((i) => pending[i] > 0));
    // Report one cycle: walk back along writers among the stuck nodes until a node repeats.
    const reported = new Set<number>();
    for (const start of stuck) {
      if (reported.has(start)) continue;
      const seen = new Map<number, number>();
      const trail: number[] = [];
      let at: number | undefined = start;
      while (at !== undefined && !seen.has(at)) {
        seen.set(at, trail.length);
        trail.push(at);
        at = nodes[at].inputs
          .map((input) => (input.signal === undefined ? undefined : writer.get(input.signal)?.node))
          .find((w): w is number => w !== undefined && stuck.has(w) && nodes[w].delaysOutputs !== true);
      }
      if (at === undefined) continue;
      const cycle = trail.slice(seen.get(at)).reverse();
      if (cycle.some((n) => reported.has(n))) continue;
      for (const n of cycle) reported.add(n);
      const first = Math.min(...cycle);
      const lowest = cycle.indexOf(first);
      cycle.push(...cycle.splice(0, lowest)); // start the cycle at its lowest index
      const names = [...cycle, cycle[0]].map((n) => nodes[n].id).join(' → ');
      problems.push({
        path: nodes[first].path,
        message: `the signals form a cycle (${names}); Sluice refuses cycles (Aperture would silently feed one component a value one tick late)`,
      });
    }
  }
  return { order, problems };
}
