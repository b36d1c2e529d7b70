import { defineBlueprint } from './blueprint.js';
import type { JsonSchema } from './blueprint.js';
import { bool, duration, num, obj, selectors, str, valuesSchema, type Selector } from './schema.js';

interface Threshold { threshold: number; operator?: string }
interface Criteria { forward?: Threshold; backward?: Threshold; reset?: Threshold }
interface Values {
  policy_name: string;
  evaluation_interval: string;
  start: boolean;
  load_ramp: {
    sampler: { label_key?: string; selectors: Selector[] };
    steps: { target_accept_percentage: number; duration: string }[];
    pass_through_label_values: string[];
  };
  drivers: {
    average_latency_drivers: { selectors: Selector[]; criteria: Criteria }[];
    promql_drivers: { query_string: string; criteria: Criteria }[];
  };
}

const NAME = 'load-ramping';
const OPERATORS = ['gt', 'lt', 'gte', 'lte', 'eq', 'neq'] as const;

const threshold = (what: string, operator: boolean): JsonSchema => obj(what, {
  threshold: num('The value the driver\'s signal is compared with.'),
  ...(operator ? { operator: { type: 'string', enum: [...OPERATORS], description: 'How the signal is compared with the threshold (signal OPERATOR threshold): gt, lt, gte, lte, eq or neq.' } } : {}),
}, operator ? ['threshold', 'operator'] : ['threshold']);

const criteria = (operator: boolean, latency: boolean): JsonSchema => obj('When the driver moves the ramp (each one optional).', {
  forward: threshold(latency ? 'The ramp may move forward while the mean latency (ms) is below the threshold.' : 'The ramp may move forward while the comparison holds.', operator),
  backward: threshold(latency ? 'The ramp moves back while the mean latency (ms) is above the threshold.' : 'The ramp moves back while the comparison holds.', operator),
  reset: threshold(latency ? 'The ramp goes back to the start while the mean latency (ms) is above the threshold.' : 'The ramp goes back to the start while the comparison holds.', operator),
});

/** One driver's signal and its deciders; the signal names are numbered across drivers, as Aperture's blueprint numbers them. */
interface Wiring { components: Record<string, unknown>[]; forward: string[]; backward: string[]; reset: string[]; fluxMeters: Record<string, unknown> }

function addDriver(w: Wiring, signal: string, query: Record<string, unknown>, c: Criteria, latencyOperators: boolean): void {
  w.components.push(query);
  const decide = (t: Threshold, operator: string, out: string) => ({ decider: { operator, in_ports: { lhs: { signal_name: signal }, rhs: { constant_signal: { value: t.threshold } } }, out_ports: { output: { signal_name: out } } } });
  for (const [key, list, latencyOp, prefix] of [['forward', w.forward, 'lt', 'FORWARD'], ['backward', w.backward, 'gt', 'BACKWARD'], ['reset', w.reset, 'gt', 'RESET']] as const) {
    const t = c[key];
    if (t === undefined) continue;
    const out = `${prefix}_${list.length}`;
    w.components.push(decide(t, latencyOperators ? latencyOp : t.operator ?? 'gt', out));
    list.push(out);
  }
}

const or = (inputs: string[], out: string) => ({ or: { in_ports: { inputs: inputs.map((signal_name) => ({ signal_name })) }, out_ports: { output: { signal_name: out } } } });
const and = (inputs: string[], out: string) => ({ and: { in_ports: { inputs: inputs.map((signal_name) => ({ signal_name })) }, out_ports: { output: { signal_name: out } } } });
const boolVariable = (key: string, value: boolean, out: string) => ({ bool_variable: { config_key: key, constant_output: value, out_ports: { output: { signal_name: out } } } });
/** NOT of a signal, true while it is invalid (inverter, then the first valid of it and 1). */
const not = (signal: string, out: string) => [
  { inverter: { in_ports: { input: { signal_name: signal } }, out_ports: { output: { signal_name: `INVERTED_${signal}` } } } },
  { first_valid: { in_ports: { inputs: [{ signal_name: `INVERTED_${signal}` }, { constant_signal: { value: 1 } }] }, out_ports: { output: { signal_name: out } } } },
];

/**
 * A load ramp (a sampler whose accept percentage walks through steps) moved forward while `start`
 * (a bool variable on the dynamic-configuration key `start`) is true and no driver holds it, back
 * while a driver's backward criterion holds, and to the start while a driver's reset criterion or
 * the `reset` key is true: the wiring of Aperture's load-ramping blueprint.
 */
export const loadRamping = defineBlueprint<Values>({
  name: NAME,
  description: 'Roll a feature out by steps of accepted traffic',
  schema: valuesSchema(NAME, 'Values of the load-ramping blueprint.', {
    start: bool('Whether the ramp moves forward from the start (the bool variable on the dynamic-configuration key `start` changes it while the policy runs; `reset` sends the ramp back to the first step).', false),
    load_ramp: obj('The load ramp.', {
      sampler: obj('The flows ramped.', {
        label_key: str('A flow label: acceptance is sticky per its value (e.g. a user); absent, each flow is drawn at random.', { minLength: 1 }),
        selectors,
      }),
      steps: {
        type: 'array',
        description: 'The steps: the ramp starts at the first one\'s percentage and moves linearly to each next one over its duration.',
        minItems: 1,
        items: obj('A step.', {
          target_accept_percentage: num('The percentage of flows accepted at the end of the step (0..100).', { minimum: 0, maximum: 100 }),
          duration: duration('How long the move from the previous step takes (0s for the first step).'),
        }, ['target_accept_percentage', 'duration']),
      },
      pass_through_label_values: { type: 'array', items: { type: 'string' }, default: [], description: 'Values of label_key always accepted (the dynamic-configuration key `pass_through_label_values` replaces them while the policy runs).' },
    }, ['steps']),
    drivers: obj('Signals that hold, reverse or reset the ramp.', {
      average_latency_drivers: {
        type: 'array',
        default: [],
        description: 'The mean latency (ms) of flows a flux meter (named `<policy_name>/average_latency/<n>`) times, read back through PromQL; Prometheus must scrape the agents.',
        items: obj('An average-latency driver.', { selectors, criteria: criteria(false, true) }, ['criteria']),
      },
      promql_drivers: {
        type: 'array',
        default: [],
        description: 'PromQL queries of your own, each compared with thresholds.',
        items: obj('A PromQL driver.', { query_string: str('A PromQL query giving one number.', { minLength: 1 }), criteria: criteria(true, false) }, ['query_string', 'criteria']),
      },
    }),
  }, ['load_ramp']),
  example: {
    blueprint: NAME,
    policy_name: 'new-checkout-rollout',
    evaluation_interval: '10s',
    load_ramp: {
      sampler: { label_key: 'user', selectors: [{ control_point: 'new-checkout' }] },
      steps: [
        { target_accept_percentage: 1, duration: '0s' },
        { target_accept_percentage: 50, duration: '10m' },
        { target_accept_percentage: 100, duration: '10m' },
      ],
      pass_through_label_values: ['qa-team'],
    },
    drivers: {
      average_latency_drivers: [{ selectors: [{ control_point: 'new-checkout' }], criteria: { forward: { threshold: 75 }, reset: { threshold: 250 } } }],
    },
  },
  spec: (v) => {
    const w: Wiring = { components: [], forward: [], backward: [], reset: [], fluxMeters: {} };
    v.drivers.promql_drivers.forEach((d, i) => {
      const signal = `PROMQL_${i}`;
      addDriver(w, signal, { query: { promql: { query_string: d.query_string, evaluation_interval: v.evaluation_interval, out_ports: { output: { signal_name: signal } } } } }, d.criteria, false);
    });
    v.drivers.average_latency_drivers.forEach((d, i) => {
      const meter = `${v.policy_name}/average_latency/${i}`;
      const sel = `flow_status="OK", flux_meter_name="${meter}", policy_name="${v.policy_name}"`;
      const signal = `AVERAGE_LATENCY_${i}`;
      w.fluxMeters[meter] = { selectors: d.selectors };
      addDriver(w, signal, { query: { promql: { query_string: `sum(increase(flux_meter_sum{${sel}}[30s]))/sum(increase(flux_meter_count{${sel}}[30s]))`, evaluation_interval: v.evaluation_interval, out_ports: { output: { signal_name: signal } } } } }, d.criteria, true);
    });
    const alwaysForward = w.forward.length === 0;
    const { sampler, steps, pass_through_label_values: passThrough } = v.load_ramp;
    return {
      ...(Object.keys(w.fluxMeters).length > 0 ? { resources: { flow_control: { flux_meters: w.fluxMeters } } } : {}),
      circuit: {
        evaluation_interval: v.evaluation_interval,
        components: [
          ...w.components,
          boolVariable('start', v.start, 'USER_START_CONTROL'),
          boolVariable('reset', false, 'USER_RESET_CONTROL'),
          or(w.backward, 'BACKWARD_INTENT'),
          or([...w.reset, 'USER_RESET_CONTROL'], 'RESET'),
          ...(alwaysForward ? [] : [or(w.forward, 'FORWARD_INTENT')]),
          ...not('BACKWARD_INTENT', 'NOT_BACKWARD'),
          ...not('RESET', 'NOT_RESET'),
          and(['NOT_BACKWARD', 'NOT_RESET', 'USER_START_CONTROL', ...(alwaysForward ? [] : ['FORWARD_INTENT'])], 'FORWARD'),
          and(['BACKWARD_INTENT', 'NOT_RESET'], 'BACKWARD'),
          {
            flow_control: {
              load_ramp: {
                in_ports: { forward: { signal_name: 'FORWARD' }, backward: { signal_name: 'BACKWARD' }, reset: { signal_name: 'RESET' } },
                out_ports: { accept_percentage: { signal_name: 'ACCEPT_PERCENTAGE' }, at_start: { signal_name: 'AT_START' }, at_end: { signal_name: 'AT_END' } },
                parameters: { sampler: { ...(sampler.label_key !== undefined ? { label_key: sampler.label_key } : {}), selectors: sampler.selectors }, steps },
                pass_through_label_values: passThrough,
                pass_through_label_values_config_key: 'pass_through_label_values',
              },
            },
          },
        ],
      },
    };
  },
});
