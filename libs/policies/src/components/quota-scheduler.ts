import { Type } from '@sinclair/typebox';
import { bool, duration, int, obj, str } from '../schema/fields.js';
import { InPort } from '../schema/ports.js';
import { Selectors } from '../schema/selector.js';
import { defineKind, type Publishing } from './kind.js';
import { publishByGroup } from './publish-by-group.js';
import { bucketCompiled, bucketInputs, bucketParameters } from './token-bucket-part.js';
import { publishedSchedulerParameters, SchedulerSchema } from './load-scheduler-parameters.js';
import { quotaSchedulerContract } from '../published/quota-scheduler.js';

const schema = obj(
  {
    in_ports: obj(
      {
        bucket_capacity: InPort,
        fill_amount: InPort,
        pass_through: Type.Optional(InPort),
      },
      'Input ports. `bucket_capacity` (≥ 0) and `fill_amount` (≥ 0, tokens added per interval) are required; `pass_through` (non-zero: accept every flow) is optional.',
    ),
    selectors: Selectors,
    rate_limiter: obj(
      {
        label_key: Type.Optional(str('Deprecated name of `limit_by_label_key`.')),
        tokens_label_key: Type.Optional(Type.Unsafe<string>({
          type: 'string',
          description: 'Aperture\'s rate limiter field: the quota scheduler takes a flow\'s tokens from `scheduler.tokens_label_key` (its workloads\' estimate otherwise), as Aperture does; accepted and reported as ignored.',
          'x-sluice-ignored': true,
        })),
        limit_by_label_key: Type.Optional(str('The flow label whose value keys a quota (its own bucket and queue); absent: one quota for all flows. A flow without the label is accepted.')),
        interval: duration('The interval over which `fill_amount` tokens are added (required, > 0).', undefined, true),
        continuous_fill: Type.Optional(bool('Add tokens continuously over the interval instead of once per interval.', true)),
        max_idle_time: Type.Optional(duration('A bucket unused this long is dropped.', '7200s', true)),
        lazy_sync: Type.Optional(
          obj(
            {
              enabled: Type.Optional(bool('Admit locally between synchronisations with the counter owner.', false)),
              num_sync: Type.Optional(int('Synchronisations per interval.', { default: 4, minimum: 1, maximum: 1000 })),
            },
            'Lazy synchronisation of distributed counters.',
          ),
        ),
      },
      'The quota: a token bucket per label value, shared by the agents of the group through the distributed counter cache.',
    ),
    scheduler: Type.Optional(SchedulerSchema),
  },
  'A quota spent by priority: flows take tokens from a token bucket shared by the agent group; when it is short they wait in a weighted-fair queue (priority, then fairness key) at most their queue timeout (503 when a flow cannot wait).',
);

export const quotaSchedulerKind: Publishing<typeof quotaSchedulerContract> = defineKind({
  path: ['flow_control', 'quota_scheduler'],
  publishes: [quotaSchedulerContract],
  schema,
  compile(spec, ctx) {
    bucketInputs(spec.in_ports, ctx);
    const r = spec.rate_limiter;
    const labelKey = r.limit_by_label_key !== undefined && r.limit_by_label_key !== '' ? r.limit_by_label_key : r.label_key;
    const scheduler = publishedSchedulerParameters(
      { scheduler: spec.scheduler, workload_latency_based_tokens: false, selectors: spec.selectors }, false, ctx.path, ctx,
    );
    const rateLimiter = bucketParameters(r, labelKey, scheduler.tokens_label_key ?? 'tokens', ctx);
    publishByGroup(ctx, spec.selectors, `${ctx.path}.selectors`, { kind: 'quota_scheduler', rate_limiter: rateLimiter, scheduler });
    return bucketCompiled('quota_scheduler');
  },
});
