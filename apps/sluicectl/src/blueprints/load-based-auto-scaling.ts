// Load-based auto-scaling: the service-protection-average-latency policy, plus an auto scaler that
// adds replicas while the adaptive load scheduler sheds load and removes them slowly on a timer.
import { adaptiveLoadScheduling } from './adaptive.js';
import { defineBlueprint } from './blueprint.js';
import { bool, duration, num, obj, str, valuesSchema } from './schema.js';
import { fluxMeterValues, latencyBaselinerValues, serviceProtectionAverageLatency, type LatencyProtectionValues } from './service-protection-average-latency.js';

interface Values extends LatencyProtectionValues {
  auto_scaling: {
    kubernetes_object: { agent_group: string; namespace: string; kind: string; name: string };
    min_replicas: number;
    max_replicas: number;
    scale_out: { slope: number; max_gradient?: number };
    periodic_scale_in: { period: string; scale_in_percentage: number };
    max_scale_out_percentage: number;
    max_scale_in_percentage: number;
    scale_out_cooldown: string;
    scale_in_cooldown: string;
    cooldown_override_percentage: number;
    dry_run: boolean;
  };
}

const NAME = 'load-based-auto-scaling';

const autoScaling = obj('The auto scaler: the object it scales, its bounds, its controllers and how fast it may change.', {
  kubernetes_object: obj('The Deployment, StatefulSet or ReplicaSet whose `/scale` one agent of the group writes.', {
    agent_group: str('The agent group whose agents scale it.', { minLength: 1, pattern: '^[^/]+$', default: 'default' }),
    namespace: str('Its namespace.', { minLength: 1 }),
    kind: { type: 'string', enum: ['Deployment', 'StatefulSet', 'ReplicaSet'], description: 'Its kind (apps/v1).', default: 'Deployment' },
    name: str('Its name.', { minLength: 1 }),
  }, ['namespace', 'name']),
  min_replicas: { type: 'integer', minimum: 0, default: 1, description: 'The fewest replicas set.' },
  max_replicas: { type: 'integer', minimum: 1, default: 10, description: 'The most replicas set.' },
  scale_out: obj('Scale-out from the scheduler\'s desired load multiplier (setpoint 1): replicas × (multiplier / 1) ^ slope while the multiplier is under 1.', {
    slope: num('The exponent (negative: a deeper cut asks for more replicas).', { default: -1, maximum: 0 }),
    max_gradient: num('The most one decision multiplies the replicas by (≥ 1; absent: no bound but max_scale_out_percentage).', { minimum: 1 }),
  }),
  periodic_scale_in: obj('Scale-in on a timer: once a period, scale_in_percentage % fewer replicas (at least one), unless a scale-out is held.', {
    period: duration('Time between two scale-in proposals.', '60s'),
    scale_in_percentage: num('The share removed at each proposal, in percent.', { default: 10, minimum: 0, maximum: 100 }),
  }),
  max_scale_out_percentage: num('The most one scale-out adds, in percent of the running replicas (at least one).', { default: 10, minimum: 0 }),
  max_scale_in_percentage: num('The most one scale-in removes, in percent of the running replicas (at least one).', { default: 1, minimum: 0 }),
  scale_out_cooldown: duration('A scale-out is held this long: no other scale-out and no scale-in meanwhile.', '30s'),
  scale_in_cooldown: duration('A scale-in is held this long: no other scale-in meanwhile.', '120s'),
  cooldown_override_percentage: num('A scale-out this many percent above the held one ends the scale-out cooldown at once.', { default: 50, minimum: 0 }),
  dry_run: bool('Decide and report, but never write `/scale`.', false),
}, ['kubernetes_object']);

/** The auto scaler of the values, reading DESIRED_LOAD_MULTIPLIER. */
function autoScalerComponent(v: Values): Record<string, unknown> {
  const a = v.auto_scaling;
  return {
    auto_scale: {
      auto_scaler: {
        scaling_backend: {
          kubernetes_replicas: {
            kubernetes_object_selector: { ...a.kubernetes_object, api_version: 'apps/v1' },
            min_replicas: a.min_replicas,
            max_replicas: a.max_replicas,
            out_ports: { actual_replicas: { signal_name: 'ACTUAL_REPLICAS' }, configured_replicas: { signal_name: 'CONFIGURED_REPLICAS' }, desired_replicas: { signal_name: 'DESIRED_REPLICAS' } },
          },
        },
        scale_out_controllers: [{
          controller: {
            gradient: {
              in_ports: { signal: { signal_name: 'DESIRED_LOAD_MULTIPLIER' }, setpoint: { constant_signal: { value: 1 } } },
              parameters: { slope: a.scale_out.slope, ...(a.scale_out.max_gradient === undefined ? {} : { max_gradient: a.scale_out.max_gradient }) },
            },
          },
          alerter: { alert_name: `${v.policy_name}: load-based scale-out proposed` },
        }],
        scale_in_controllers: [{
          controller: { periodic: a.periodic_scale_in },
          alerter: { alert_name: `${v.policy_name}: periodic scale-in proposed` },
        }],
        scaling_parameters: {
          max_scale_out_percentage: a.max_scale_out_percentage,
          max_scale_in_percentage: a.max_scale_in_percentage,
          scale_out_cooldown: a.scale_out_cooldown,
          scale_in_cooldown: a.scale_in_cooldown,
          cooldown_override_percentage: a.cooldown_override_percentage,
          scale_out_alerter: { alert_name: `${v.policy_name}: scaling out` },
          scale_in_alerter: { alert_name: `${v.policy_name}: scaling in` },
        },
        dry_run: a.dry_run,
      },
    },
  };
}

export const loadBasedAutoScaling = defineBlueprint<Values>({
  name: NAME,
  description: 'Add replicas while latency-based shedding lasts',
  schema: valuesSchema(NAME, 'Values of the load-based-auto-scaling blueprint.', {
    flux_meter: fluxMeterValues,
    latency_baseliner: latencyBaselinerValues,
    load_scheduling: adaptiveLoadScheduling,
    auto_scaling: autoScaling,
  }, ['auto_scaling']),
  example: {
    blueprint: NAME,
    policy_name: 'search-auto-scaling',
    evaluation_interval: '10s',
    flux_meter: { selectors: [{ control_point: 'ingress' }] },
    latency_baseliner: { latency_tolerance_multiplier: 1.1 },
    load_scheduling: { selectors: [{ control_point: 'ingress' }] },
    auto_scaling: {
      kubernetes_object: { namespace: 'prod', kind: 'Deployment', name: 'search' },
      min_replicas: 2,
      max_replicas: 10,
      periodic_scale_in: { period: '120s', scale_in_percentage: 10 },
      max_scale_out_percentage: 20,
      scale_in_cooldown: '300s',
    },
  },
  spec: (v) => {
    // The latency-protection policy of the same values (its part of the schema is the same).
    const spec = serviceProtectionAverageLatency.spec(v as unknown as Record<string, unknown>);
    const circuit = spec.circuit as { components: Record<string, unknown>[] };
    return { ...spec, circuit: { ...circuit, components: [...circuit.components, autoScalerComponent(v)] } };
  },
});
