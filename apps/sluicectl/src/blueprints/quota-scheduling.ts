import { defineBlueprint } from './blueprint.js';
import { bool, duration, num, obj, schedulerProperties, str, valuesSchema, type SchedulerValues } from './schema.js';

interface Values {
  policy_name: string;
  evaluation_interval: string;
  quota_scheduler: SchedulerValues & {
    bucket_capacity: number;
    fill_amount: number;
    interval: string;
    limit_by_label_key?: string;
    continuous_fill: boolean;
  };
}

const NAME = 'quota-scheduling';

/**
 * A quota (a token bucket per value of a flow label, shared by the agent group) spent by workload
 * priority: when the bucket is short, flows wait in a weighted-fair queue, the higher priorities
 * first, at most their queue timeout.
 */
export const quotaScheduling = defineBlueprint<Values>({
  name: NAME,
  description: 'A shared quota, spent by workload priority',
  schema: valuesSchema(NAME, 'Values of the quota-scheduling blueprint.', {
    quota_scheduler: obj('The quota scheduler.', {
      bucket_capacity: num('Most tokens the quota holds: the largest burst (≥ 0).', { minimum: 0 }),
      fill_amount: num('Tokens added to the quota every interval: the sustained rate (≥ 0).', { minimum: 0 }),
      interval: duration('The interval over which fill_amount tokens are added (> 0).', '1s'),
      limit_by_label_key: str('The flow label whose value keys a quota of its own (e.g. http.request.header.tenant); absent: one quota for all flows.', { minLength: 1 }),
      continuous_fill: bool('Add tokens continuously over the interval instead of once per interval.', true),
      ...schedulerProperties,
    }, ['bucket_capacity', 'fill_amount']),
  }, ['quota_scheduler']),
  example: {
    blueprint: NAME,
    policy_name: 'tenant-quota',
    quota_scheduler: {
      bucket_capacity: 100,
      fill_amount: 50,
      interval: '1s',
      limit_by_label_key: 'http.request.header.tenant',
      selectors: [{ control_point: 'ingress' }],
      workloads: [
        { name: 'interactive', label_matcher: { match_labels: { 'http.request.header.x_kind': 'interactive' } }, parameters: { priority: 200, queue_timeout: '1s' } },
        { name: 'batch', label_matcher: { match_labels: { 'http.request.header.x_kind': 'batch' } }, parameters: { priority: 20, queue_timeout: '10s' } },
      ],
      default_workload_parameters: { priority: 50, queue_timeout: '2s' },
    },
  },
  spec: (v) => {
    const q = v.quota_scheduler;
    return {
      circuit: {
        evaluation_interval: v.evaluation_interval,
        components: [{
          flow_control: {
            quota_scheduler: {
              in_ports: {
                bucket_capacity: { constant_signal: { value: q.bucket_capacity } },
                fill_amount: { constant_signal: { value: q.fill_amount } },
              },
              selectors: q.selectors,
              rate_limiter: {
                interval: q.interval,
                continuous_fill: q.continuous_fill,
                ...(q.limit_by_label_key !== undefined ? { limit_by_label_key: q.limit_by_label_key } : {}),
              },
              scheduler: { workloads: q.workloads, default_workload_parameters: q.default_workload_parameters },
            },
          },
        }],
      },
    };
  },
});
