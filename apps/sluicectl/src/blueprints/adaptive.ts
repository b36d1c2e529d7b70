// The adaptive load scheduler both service-protection blueprints end in: while `signal` is above
// `setpoint` the agents admit a shrinking share of the incoming token rate, by workload priority.
import { bool, num, obj, schedulerProperties, loadSchedulerParameters, type SchedulerValues } from './schema.js';
import type { JsonSchema } from './blueprint.js';

export const adaptiveLoadScheduling: JsonSchema = obj('The adaptive load scheduler: where it applies, its workloads, and how it cuts and recovers.', {
  ...schedulerProperties,
  gradient: obj('The cut while overloaded: the share in force times (signal / setpoint) ^ slope, clamped to [min_gradient, max_gradient].', {
    slope: num('The exponent (negative: a higher signal cuts more).', { default: -1, maximum: 0 }),
    min_gradient: num('The deepest cut of one tick.', { default: 0.1, minimum: 0, maximum: 1 }),
    max_gradient: num('The smallest cut of one tick.', { default: 1, minimum: 0, maximum: 1 }),
  }),
  load_multiplier_linear_increment: num('Added to the share each tick without overload.', { default: 0.025, minimum: 0 }),
  max_load_multiplier: num('The share at which recovery ends and the scheduler lets every flow through again.', { default: 2, exclusiveMinimum: 0 }),
  proportional_cut: bool('While an overload lasts, cut from the share in force when it began rather than compounding a cut per tick (suits a lagging signal such as a windowed latency).', true),
  dry_run: bool('Decide and count, but admit every flow and queue none.', false),
});

export interface AdaptiveValues extends SchedulerValues {
  gradient: { slope: number; min_gradient: number; max_gradient: number };
  load_multiplier_linear_increment: number;
  max_load_multiplier: number;
  proportional_cut: boolean;
  dry_run: boolean;
}

/** The `flow_control.adaptive_load_scheduler` component reading signals `signal` and `setpoint`. */
export function adaptiveLoadSchedulerComponent(v: AdaptiveValues, signal: string, setpoint: string): Record<string, unknown> {
  return {
    flow_control: {
      adaptive_load_scheduler: {
        in_ports: { signal: { signal_name: signal }, setpoint: { signal_name: setpoint } },
        out_ports: {
          desired_load_multiplier: { signal_name: 'DESIRED_LOAD_MULTIPLIER' },
          observed_load_multiplier: { signal_name: 'OBSERVED_LOAD_MULTIPLIER' },
          is_overload: { signal_name: 'IS_OVERLOAD' },
        },
        parameters: {
          gradient: v.gradient,
          load_multiplier_linear_increment: v.load_multiplier_linear_increment,
          max_load_multiplier: v.max_load_multiplier,
          proportional_cut: v.proportional_cut,
          load_scheduler: loadSchedulerParameters(v),
        },
        dry_run: v.dry_run,
      },
    },
  };
}
