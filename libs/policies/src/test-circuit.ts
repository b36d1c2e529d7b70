/** Helpers for the tests of circuit kinds: run a circuit tick by tick and read its signals. */
import { compilePolicy } from './compile.js';

export type Obj = Record<string, unknown>;

export const c = (value: number): Obj => ({ constant_signal: { value } });
export const nan = (): Obj => ({ constant_signal: { special_value: 'NaN' } });
export const s = (name: string): Obj => ({ signal_name: name });
export const out = (name: string): Obj => ({ output: { signal_name: name } });

/** A variable `name`, invalid until a tick sets it (see `series`). */
export const input = (name: string): Obj => ({ variable: { constant_output: { special_value: 'NaN' }, out_ports: out(name) } });

/**
 * Runs `components` (at `interval`, default 1s) for as many ticks as `inputs` has entries, one
 * evaluation interval apart: entry i sets the variables of tick i (a number, or null to leave it
 * invalid). Answers the value of each signal in `read` at each tick.
 */
export function series(
  components: Obj[],
  inputs: readonly Record<string, number | null>[],
  read: readonly string[],
  interval = '1s',
): Record<string, (number | null)[]> {
  const compiled = compilePolicy('t', { circuit: { evaluation_interval: interval, components } });
  const circuit = compiled.createCircuit();
  const seen: Record<string, (number | null)[]> = Object.fromEntries(read.map((r) => [r, []]));
  inputs.forEach((set, i) => {
    const variables = new Map<string, number>();
    for (const [k, v] of Object.entries(set)) if (v !== null) variables.set(k, v);
    const { signals } = circuit.tick(i * compiled.evaluationIntervalMs, { promql: new Map(), variables });
    for (const r of read) seen[r].push(signals[r] ?? null);
  });
  return seen;
}

/** `series` for one input signal `IN` and one output `OUT`. */
export function outputs(component: Obj, ins: readonly (number | null)[], interval = '1s'): (number | null)[] {
  return series([input('IN'), component], ins.map((v) => ({ IN: v })), ['OUT'], interval).OUT;
}
