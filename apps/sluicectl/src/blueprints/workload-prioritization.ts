import { defineBlueprint } from './blueprint.js';
import { bool, num, obj, schedulerProperties, valuesSchema, workloads, loadSchedulerParameters, type SchedulerValues } from './schema.js';

interface Values {
  policy_name: string;
  evaluation_interval: string;
  load_scheduler: SchedulerValues & { load_multiplier: number; dry_run: boolean };
}

const NAME = 'workload-prioritization';

/**
 * A load scheduler admitting `load_multiplier` × the incoming token rate, its workloads queued by
 * priority. The multiplier is a variable: the policy API can change it while the policy runs.
 */
export const workloadPrioritization = defineBlueprint<Values>({
  name: NAME,
  description: 'Queue flows by workload priority at a set share of traffic',
  schema: valuesSchema(NAME, 'Values of the workload-prioritization blueprint.', {
    load_scheduler: obj('The load scheduler.', {
      ...schedulerProperties,
      workloads: { ...workloads, minItems: 1 },
      load_multiplier: num('The share of the incoming token rate admitted (≥ 0; 1 admits the rate seen, below 1 sheds the lowest priorities first). The policy\'s LOAD_MULTIPLIER variable: the policy API can change it at run time.', { default: 1, minimum: 0 }),
      dry_run: bool('Decide and count, but admit every flow and queue none.', false),
    }, ['workloads']),
  }, ['load_scheduler']),
  example: {
    blueprint: NAME,
    policy_name: 'api-priorities',
    load_scheduler: {
      selectors: [{ control_point: 'ingress' }],
      workloads: [
        { name: 'interactive', label_matcher: { match_labels: { 'http.request.header.x_kind': 'interactive' } }, parameters: { priority: 250, queue_timeout: '0.5s' } },
        { name: 'batch', label_matcher: { match_labels: { 'http.request.header.x_kind': 'batch' } }, parameters: { priority: 10, queue_timeout: '5s', fairness_key: 'http.request.header.user' } },
      ],
      default_workload_parameters: { priority: 50, queue_timeout: '1s' },
      load_multiplier: 0.9,
    },
  },
  spec: (v) => ({
    circuit: {
      evaluation_interval: v.evaluation_interval,
      components: [
        { variable: { constant_output: { value: v.load_scheduler.load_multiplier }, out_ports: { output: { signal_name: 'LOAD_MULTIPLIER' } } } },
        {
          flow_control: {
            load_scheduler: {
              in_ports: { load_multiplier: { signal_name: 'LOAD_MULTIPLIER' } },
              parameters: loadSchedulerParameters(v.load_scheduler),
              dry_run: v.load_scheduler.dry_run,
            },
          },
        },
      ],
    },
  }),
});
