// The auto scaler's decision at one tick, as Aperture 2.8 computes it in the circuit it expands the
// auto scaler into: pure state, stepped once per tick, so that its semantics are tested on their own.
import { gradientOf } from './gradient.js';

/** A scale-out gradient (gradient clamped to [1, max]) or a scale-in one (clamped to [min, 1]). */
export interface GradientSettings {
  kind: 'gradient';
  slope: number;
  minGradient: number;
  maxGradient: number;
}

/** Scale-in by `percentage` % of the actual scale (at least 1) at one tick every period. */
export interface PeriodicSettings {
  kind: 'periodic';
  /** Ticks between two decreases (the period in ticks); the first decrease is at the first tick. */
  periodTicks: number;
  percentage: number;
}

export type ControllerSettings = GradientSettings | PeriodicSettings;

export interface AutoScalerSettings {
  scaleOut: readonly GradientSettings[];
  scaleIn: readonly ControllerSettings[];
  minScale: number;
  maxScale: number;
  maxScaleOutPercentage: number;
  maxScaleInPercentage: number;
  cooldownOverridePercentage: number;
  /** Ticks a scale-out intent is held (the scale-out cooldown in ticks). */
  scaleOutCooldownTicks: number;
  /** Ticks a scale-in intent is held (the scale-in cooldown in ticks). */
  scaleInCooldownTicks: number;
}

/** What one tick reads: the object's scale as the agent reported it, and each gradient's inputs. */
export interface AutoScalerTickInputs {
  /** Replicas running (`/scale` status.replicas); undefined: no report. */
  actual: number | undefined;
  /** Replicas configured (`/scale` spec.replicas); undefined: no report. */
  configured: number | undefined;
  /** Per scale-out controller: signal and setpoint (undefined: invalid). */
  scaleOut: readonly { signal: number | undefined; setpoint: number | undefined }[];
  /** Per scale-in controller: signal and setpoint (a periodic controller reads none). */
  scaleIn: readonly { signal: number | undefined; setpoint: number | undefined }[];
}

export interface AutoScalerStep {
  /** The scale to set now, within the bounds; undefined: nothing to change. */
  desired: number | undefined;
  /** Per scale-out controller: whether it asks for more than the actual scale. */
  scaleOutActive: readonly boolean[];
  /** Per scale-in controller: whether it asks for less than the actual scale. */
  scaleInActive: readonly boolean[];
}

/** Aperture's holder: keeps the first valid input for `ticks` ticks; a reset drops it at once. */
class Hold {
  private held: number | undefined;
  private count = 0;
  constructor(private readonly ticks: number) {}

  step(input: number | undefined, reset: boolean): number | undefined {
    if (reset) this.held = undefined;
    let output: number | undefined;
    if (this.held !== undefined) {
      this.count++;
      if (this.count >= this.ticks) this.held = undefined;
      else output = this.held;
    }
    if (this.held === undefined && input !== undefined) {
      this.held = input;
      this.count = 0;
      output = input;
    }
    return output;
  }
}

/** Aperture's pulse generator with true_for one tick and false_for the period: 1 at the first tick. */
class Pulse {
  private high = true;
  private count = 0;
  constructor(private readonly falseTicks: number) {}

  step(): boolean {
    const output = this.high;
    this.count++;
    if (this.count >= (this.high ? 1 : this.falseTicks)) {
      this.high = !this.high;
      this.count = 0;
    }
    return output;
  }
}

const finite = (v: number | undefined): number | undefined => (v === undefined || !Number.isFinite(v) ? undefined : v);

/**
 * The auto scaler's state between ticks. Each controller proposes a scale (the actual scale when it
 * cannot tell, rounded up); scale-out and scale-in each take the largest proposal, as Aperture does
 * (the least scale-in when several controllers scale in). A scale-out beyond the actual scale is held
 * for the scale-out cooldown (a new one more than `cooldown_override_percentage` above the held value
 * takes over at once); a scale-in below it is held for the scale-in cooldown and only while no
 * scale-out is held. The held value applies while it differs from the configured scale, bounded to
 * the actual scale ± the max percentages (at least 1) and to [min, max].
 */
export class AutoScalerLogic {
  private readonly outHold: Hold;
  private readonly inHold: Hold;
  private readonly pulses: (Pulse | undefined)[];
  /** The held scale-out of the previous tick (Aperture's loop through the holder reads it a tick late). */
  private lastOutHeld: number | undefined;

  constructor(private readonly s: AutoScalerSettings) {
    this.outHold = new Hold(s.scaleOutCooldownTicks);
    this.inHold = new Hold(s.scaleInCooldownTicks);
    this.pulses = s.scaleIn.map((c) => (c.kind === 'periodic' ? new Pulse(c.periodTicks) : undefined));
  }

  step(inp: AutoScalerTickInputs): AutoScalerStep {
    const s = this.s;
    const actual = finite(inp.actual);
    const configured = finite(inp.configured);
    // Every pulse advances each tick, whether or not the scale is known.
    const pulsing = this.pulses.map((p) => p?.step() ?? false);

    const gradient = (g: GradientSettings, io: { signal: number | undefined; setpoint: number | undefined } | undefined): number | undefined => {
      if (actual === undefined) return undefined;
      const signal = finite(io?.signal);
      const setpoint = finite(io?.setpoint);
      const grad = signal === undefined || setpoint === undefined ? undefined : gradientOf(signal, setpoint, g.slope, g.minGradient, g.maxGradient);
      const proposed = grad === undefined ? Number.NaN : actual * grad;
      return Math.ceil(Number.isNaN(proposed) ? actual : proposed);
    };
    const outs = s.scaleOut.map((g, i) => gradient(g, inp.scaleOut[i]));
    const ins = s.scaleIn.map((c, i) => {
      if (c.kind === 'gradient') return gradient(c, inp.scaleIn[i]);
      if (actual === undefined) return undefined;
      if (!pulsing[i]) return Math.ceil(actual);
      return Math.ceil(actual - Math.ceil(Math.max(1, (actual * c.percentage) / 100)));
    });

    // Max of the proposals: invalid when there are none or any is invalid (the actual scale unknown).
    const largest = (xs: readonly (number | undefined)[]) => (xs.length === 0 || xs.some((x) => x === undefined) ? undefined : Math.max(...(xs as number[])));
    const outMax = largest(outs);
    const inMax = largest(ins);
    const outIntent = outMax !== undefined && actual !== undefined && outMax > actual ? outMax : undefined;
    const inIntent = inMax !== undefined && actual !== undefined && inMax < actual ? inMax : undefined;

    const threshold = this.lastOutHeld === undefined ? undefined : this.lastOutHeld * (1 + s.cooldownOverridePercentage / 100);
    const override = outIntent !== undefined && threshold !== undefined && outIntent > threshold;
    const outHeld = this.outHold.step(outIntent, override);
    this.lastOutHeld = outHeld;
    const outHolding = outHeld !== undefined && outHeld !== 0;
    const inHeld = this.inHold.step(outHolding ? undefined : inIntent, outHolding);

    const scaleOut = outHeld !== undefined && configured !== undefined && outHeld > configured ? outHeld : undefined;
    const scaleIn = inHeld !== undefined && configured !== undefined && inHeld < configured ? inHeld : undefined;
    const pre = scaleOut ?? scaleIn;

    let desired: number | undefined;
    if (pre !== undefined && actual !== undefined) {
      const stepIn = Math.max(Math.floor((s.maxScaleInPercentage / 100) * actual), 1);
      const stepOut = Math.max(Math.floor((s.maxScaleOutPercentage / 100) * actual), 1);
      const lowest = Math.min(Math.max(actual - stepIn, s.minScale), s.maxScale);
      const highest = Math.max(Math.min(actual + stepOut, s.maxScale), s.minScale);
      desired = Math.min(Math.max(pre, lowest), highest);
    }
    return {
      desired,
      scaleOutActive: outs.map((o) => o !== undefined && actual !== undefined && o > actual),
      scaleInActive: ins.map((o) => o !== undefined && actual !== undefined && o < actual),
    };
  }
}
