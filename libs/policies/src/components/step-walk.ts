import { Type, type TOptional } from '@sinclair/typebox';
import { obj } from '../schema/fields.js';
import { InPort, OutPort } from '../schema/ports.js';
import type { KindContext, SignalValue } from './kind.js';
import { ticksIn, truth } from './tick-helpers.js';

/** One step of a walk: its target, and the ticks it takes to reach it from the previous step's. */
export interface WalkStep {
  readonly target: number;
  readonly ticks: number;
}

/** Where a walk stands after a tick. */
export interface WalkState {
  /** The target of the current step, interpolated linearly from the previous step's over the step. */
  readonly value: number;
  /** True from the start (and after a reset) until the walk first moves forward, or back at the first step. */
  readonly atStart: boolean;
  /** True once the walk reached the last step's end, until it moves back or is reset. */
  readonly atEnd: boolean;
}

/** The in-ports of a component walking steps (`forward`, `backward`, `reset`), described by `description`. */
export function stepWalkInPorts(description: string) {
  return Type.Optional(obj({ forward: Type.Optional(InPort), backward: Type.Optional(InPort), reset: Type.Optional(InPort) }, description));
}

/** The out-ports of a component walking steps: its value's port (`valuePort`), then `at_start` and `at_end`. */
export function stepWalkOutPorts<K extends string>(valuePort: K, description: string) {
  const value = { [valuePort]: Type.Optional(OutPort) } as Record<K, TOptional<typeof OutPort>>;
  return Type.Optional(obj({ ...value, at_start: Type.Optional(OutPort), at_end: Type.Optional(OutPort) }, description));
}

/** Declares a step walker's ports with the compiler, in the order its runtime reads and answers them. */
export function declareStepWalkPorts(
  ctx: KindContext,
  inPorts: { forward?: InPort; backward?: InPort; reset?: InPort } | undefined,
  valuePort: string,
  outPorts: Readonly<Record<string, OutPort | undefined>> | undefined,
): void {
  for (const port of ['forward', 'backward', 'reset'] as const) ctx.input(inPorts?.[port], `${ctx.path}.in_ports.${port}`);
  for (const port of [valuePort, 'at_start', 'at_end']) ctx.output(outPorts?.[port], `${ctx.path}.out_ports.${port}`);
}

/** Steps with their durations in ticks: a step of 0 ms, or shorter than the interval, takes one tick. */
export function walkSteps(steps: readonly { target: number; durationMs: number }[], evaluationIntervalMs: number): WalkStep[] {
  return steps.map((s) => ({ target: s.target, ticks: s.durationMs === 0 ? 1 : ticksIn(s.durationMs, evaluationIntervalMs) }));
}

/**
 * A walk through steps, one tick at a time, as Aperture's signal generator walks them (the load ramp
 * walks its accept percentage the same way). Each tick: `reset` (true when valid and non-zero) goes
 * back to the start; else `forward` moves one tick ahead and `backward` one tick back (both or neither:
 * it stays; an invalid signal is not true). It starts at the first step's target and stays at the end.
 * A target that is not finite (NaN, ±Inf) is not interpolated: it holds for its whole step.
 *
 * At the end, the signal generator holds the value one tick short of the last target (Aperture's
 * count); `reachesLastTarget` makes the end hold the last target itself (the load ramp: a ramp to
 * 100% accepts every flow once it is done).
 */
export class StepWalk {
  private step = 0;
  private count = 0;
  private atStart = true;
  private atEnd = false;

  constructor(
    private readonly steps: readonly WalkStep[],
    private readonly reachesLastTarget = false,
  ) {
    if (steps.length === 0) throw new Error('a walk needs at least one step');
  }

  tick(forwardIn: SignalValue | undefined, backwardIn: SignalValue | undefined, resetIn: SignalValue | undefined): WalkState {
    const forward = truth(forwardIn) === true;
    const backward = truth(backwardIn) === true;
    if (truth(resetIn) === true) this.reset();
    else if (forward && !backward) this.forward();
    else if (backward && !forward) this.backward();
    return { value: this.value(), atStart: this.atStart, atEnd: this.atEnd };
  }

  private reset(): void {
    this.step = 0;
    this.count = 0;
    this.atStart = true;
    this.atEnd = false;
  }

  private forward(): void {
    this.atStart = false;
    if (this.atEnd) return;
    this.count++;
    if (this.count < this.steps[this.step].ticks) return;
    this.step++;
    if (this.step >= this.steps.length) {
      this.step = this.steps.length - 1;
      this.atEnd = true;
      this.count = this.steps[this.step].ticks - (this.reachesLastTarget ? 0 : 1);
    } else this.count = 0;
  }

  private backward(): void {
    this.atEnd = false;
    if (this.atStart) return;
    this.count--;
    if (this.count > -1) return;
    this.step--;
    if (this.step < 0) {
      this.step = 0;
      this.atStart = true;
      this.count = 0;
    } else this.count = this.steps[this.step].ticks - 1;
  }

  private value(): number {
    const current = this.steps[this.step];
    const previous = this.steps[this.step - 1];
    if (previous === undefined || !Number.isFinite(current.target) || !Number.isFinite(previous.target) || previous.target === current.target) return current.target;
    return previous.target + (current.target - previous.target) * (this.count / current.ticks);
  }
}
