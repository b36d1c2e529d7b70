import { adaptiveLoadScheduling, adaptiveLoadSchedulerComponent, type AdaptiveValues } from './adaptive.js';
import { defineBlueprint } from './blueprint.js';
import { duration, num, obj, str, valuesSchema } from './schema.js';

interface Values {
  policy_name: string;
  evaluation_interval: string;
  promql: { query_string: string; evaluation_interval: string; setpoint: number };
  load_scheduling: AdaptiveValues;
}

const NAME = 'service-protection-promql';

/** A PromQL query is the signal, a constant the setpoint, of an adaptive load scheduler. */
export const serviceProtectionPromql = defineBlueprint<Values>({
  name: NAME,
  description: 'Shed load by priority when a PromQL signal tops a setpoint',
  schema: valuesSchema(NAME, 'Values of the service-protection-promql blueprint.', {
    promql: obj('The overload signal.', {
      query_string: str('A PromQL query giving one number (e.g. a queue length, a CPU share, a p99 latency).', { minLength: 1 }),
      evaluation_interval: duration('How often the controller runs the query.', '10s'),
      setpoint: num('While the query\'s result is above this, the service is overloaded.'),
    }, ['query_string', 'setpoint']),
    load_scheduling: adaptiveLoadScheduling,
  }, ['promql']),
  example: {
    blueprint: NAME,
    policy_name: 'orders-queue-protection',
    promql: {
      query_string: 'avg(orders_queue_length{service="orders"})',
      evaluation_interval: '10s',
      setpoint: 100,
    },
    load_scheduling: {
      selectors: [{ control_point: 'ingress' }],
      workloads: [
        { name: 'checkout', label_matcher: { match_labels: { 'http.request.path': '/checkout' } }, parameters: { priority: 200 } },
      ],
      default_workload_parameters: { priority: 50, queue_timeout: '0.1s' },
    },
  },
  spec: (v) => ({
    circuit: {
      evaluation_interval: v.evaluation_interval,
      components: [
        { query: { promql: { query_string: v.promql.query_string, evaluation_interval: v.promql.evaluation_interval, out_ports: { output: { signal_name: 'SIGNAL' } } } } },
        { variable: { constant_output: { value: v.promql.setpoint }, out_ports: { output: { signal_name: 'SETPOINT' } } } },
        adaptiveLoadSchedulerComponent(v.load_scheduling, 'SIGNAL', 'SETPOINT'),
      ],
    },
  }),
});
