import type { FluxMeter } from '../check/component.js';

/** Aperture's default flux meter buckets, in milliseconds. */
export const DEFAULT_FLUX_METER_BUCKETS: readonly number[] = Object.freeze([5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]);

export interface FluxMeterOptions {
  /** The flux meter's name (its key in the policy's `flux_meters`), unique among the agent's flux meters. */
  name: string;
  policy_name: string;
  policy_hash?: string;
  /** Upper bounds of the buckets in milliseconds, increasing and finite; default DEFAULT_FLUX_METER_BUCKETS. */
  buckets?: readonly number[];
  /** What is measured; only `workload_duration_ms` (check to flow end) is. */
  attribute_key?: string;
}

/** Checks bucket bounds: finite, strictly increasing; answers a frozen copy, or throws RangeError. */
export function checkBuckets(name: string, buckets: readonly number[]): readonly number[] {
  if (!Array.isArray(buckets) || buckets.length === 0) throw new RangeError(`flux meter ${name}: buckets must be a non-empty list`);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    if (typeof b !== 'number' || !Number.isFinite(b)) throw new RangeError(`flux meter ${name}: bucket ${i} is not a finite number`);
    if (i > 0 && b <= buckets[i - 1]) throw new RangeError(`flux meter ${name}: buckets must increase (bucket ${i})`);
  }
  return Object.freeze([...buckets]);
}

/**
 * A flux meter: registered in the engine with its selector, it names itself
 * in the check response of the flows it selects; their durations (check to
 * flow end) go to the `flux_meter` histogram with this meter's buckets.
 * `update` applies a new configuration of the same meter in place.
 */
export class FluxMeterComponent implements FluxMeter {
  readonly kind = 'flux_meter' as const;
  readonly name: string;
  private state: { policyName: string; policyHash: string; buckets: readonly number[] };

  constructor(opts: FluxMeterOptions) {
    if (typeof opts.name !== 'string' || opts.name === '') throw new TypeError('a flux meter needs a name');
    this.name = opts.name;
    this.state = FluxMeterComponent.stateOf(opts);
  }

  private static stateOf(opts: FluxMeterOptions): { policyName: string; policyHash: string; buckets: readonly number[] } {
    return {
      policyName: opts.policy_name,
      policyHash: opts.policy_hash ?? '',
      buckets: checkBuckets(opts.name, opts.buckets ?? DEFAULT_FLUX_METER_BUCKETS),
    };
  }

  get policyName(): string {
    return this.state.policyName;
  }

  get policyHash(): string {
    return this.state.policyHash;
  }

  get buckets(): readonly number[] {
    return this.state.buckets;
  }

  /** Apply a new configuration (the name stays); throws RangeError for bad buckets and changes nothing. */
  update(opts: Omit<FluxMeterOptions, 'name'>): void {
    this.state = FluxMeterComponent.stateOf({ ...opts, name: this.name });
  }
}

/** A flux meter with what the histogram needs (a FluxMeterComponent, or any meter that carries these). */
export interface MeasuringFluxMeter extends FluxMeter {
  readonly policyName: string;
  readonly buckets: readonly number[];
}

export function isMeasuringFluxMeter(m: FluxMeter | undefined): m is MeasuringFluxMeter {
  return m !== undefined && typeof (m as Partial<MeasuringFluxMeter>).policyName === 'string' && Array.isArray((m as Partial<MeasuringFluxMeter>).buckets);
}
