import { adaptiveLoadScheduling, adaptiveLoadSchedulerComponent, type AdaptiveValues } from './adaptive.js';
import { defineBlueprint } from './blueprint.js';
import { duration, num, obj, selectors, valuesSchema, type Selector } from './schema.js';

/** The flux meter timing the flows whose latency is watched (named after the policy). */
export const fluxMeterValues = obj('The flux meter (named after the policy) timing the flows whose latency is watched; Prometheus must scrape the agents.', { selectors });

/** How the mean latency and its setpoint are read. */
export const latencyBaselinerValues = obj('How the latency and its setpoint are read.', {
  query_window: duration('The range of the PromQL query for the current mean latency (hold a few scrapes).', '10s'),
  ema_window: duration('The window of the exponential moving average of the latency: the service\'s usual latency.', '1500s'),
  warmup_window: duration('How long the average is only gathered before it gives a setpoint.', '60s'),
  latency_tolerance_multiplier: num('The setpoint is the average times this (≥ 1): above it the service is overloaded.', { default: 1.25, minimum: 1 }),
});

export interface LatencyProtectionValues {
  policy_name: string;
  evaluation_interval: string;
  flux_meter: { selectors: Selector[] };
  latency_baseliner: {
    query_window: string;
    ema_window: string;
    warmup_window: string;
    latency_tolerance_multiplier: number;
  };
  load_scheduling: AdaptiveValues;
}

const NAME = 'service-protection-average-latency';

/** The mean latency of accepted flows over `window`, from the flux meter's histogram. */
function meanLatencyQuery(fluxMeter: string, window: string): string {
  const sel = `{flux_meter_name="${fluxMeter}", decision_type="DECISION_TYPE_ACCEPTED"}`;
  return `sum(increase(flux_meter_sum${sel}[${window}])) / sum(increase(flux_meter_count${sel}[${window}]))`;
}

/**
 * A flux meter times the service's flows; the controller reads back their mean latency through
 * PromQL; its EMA times the tolerance is the setpoint of an adaptive load scheduler.
 */
export const serviceProtectionAverageLatency = defineBlueprint<LatencyProtectionValues>({
  name: NAME,
  description: 'Shed load by priority when latency exceeds its average',
  schema: valuesSchema(NAME, 'Values of the service-protection-average-latency blueprint.', {
    flux_meter: fluxMeterValues,
    latency_baseliner: latencyBaselinerValues,
    load_scheduling: adaptiveLoadScheduling,
  }, []),
  example: {
    blueprint: NAME,
    policy_name: 'checkout-protection',
    flux_meter: { selectors: [{ control_point: 'ingress' }] },
    latency_baseliner: { latency_tolerance_multiplier: 1.25 },
    load_scheduling: {
      selectors: [{ control_point: 'ingress' }],
      workloads: [
        { name: 'gold', label_matcher: { match_labels: { 'http.request.header.user_tier': 'gold' } }, parameters: { priority: 200, queue_timeout: '0.2s' } },
        { name: 'free', label_matcher: { match_labels: { 'http.request.header.user_tier': 'free' } }, parameters: { priority: 50, queue_timeout: '0.05s' } },
      ],
      default_workload_parameters: { priority: 50, queue_timeout: '0.1s' },
    },
  },
  spec: (v) => {
    const lb = v.latency_baseliner;
    return {
      resources: { flow_control: { flux_meters: { [v.policy_name]: { selectors: v.flux_meter.selectors } } } },
      circuit: {
        evaluation_interval: v.evaluation_interval,
        components: [
          { query: { promql: { query_string: meanLatencyQuery(v.policy_name, lb.query_window), evaluation_interval: v.evaluation_interval, out_ports: { output: { signal_name: 'LATENCY' } } } } },
          { ema: { in_ports: { input: { signal_name: 'LATENCY' } }, parameters: { ema_window: lb.ema_window, warmup_window: lb.warmup_window }, out_ports: { output: { signal_name: 'LATENCY_EMA' } } } },
          {
            arithmetic_combinator: {
              operator: 'mul',
              in_ports: { lhs: { signal_name: 'LATENCY_EMA' }, rhs: { constant_signal: { value: lb.latency_tolerance_multiplier } } },
              out_ports: { output: { signal_name: 'LATENCY_SETPOINT' } },
            },
          },
          adaptiveLoadSchedulerComponent(v.load_scheduling, 'LATENCY', 'LATENCY_SETPOINT'),
        ],
      },
    };
  },
});
