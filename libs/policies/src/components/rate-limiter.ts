import { Type } from '@sinclair/typebox';
import { bool, duration, int, obj, str } from '../schema/fields.js';
import { InPort } from '../schema/ports.js';
import { Selectors } from '../schema/selector.js';
import { defineKind, type Publishing } from './kind.js';
import { publishByGroup } from './publish-by-group.js';
import { bucketCompiled, bucketInputs, bucketParameters } from './token-bucket-part.js';
import { rateLimiterContract } from '../published/rate-limiter.js';

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
    parameters: obj(
      {
        label_key: Type.Optional(str('The flow label whose value keys a bucket; absent: one bucket for all flows. A flow without the label is accepted.')),
        tokens_label_key: Type.Optional(str('The flow label giving the tokens a flow takes (else 1).', { default: 'tokens' })),
        interval: duration('The interval over which `fill_amount` tokens are added (required, > 0).', undefined, true),
        continuous_fill: Type.Optional(bool('Add tokens continuously over the interval instead of once per interval.', true)),
        max_idle_time: Type.Optional(duration('A bucket unused this long is dropped; 0s: never dropped.', '7200s', false)),
        lazy_sync: Type.Optional(
          obj(
            {
              enabled: Type.Optional(bool('Admit locally between synchronisations with the counter owner.', false)),
              num_sync: Type.Optional(int('Synchronisations per interval.', { default: 4, minimum: 1, maximum: 1000 })),
            },
            'Lazy synchronisation of distributed counters (takes effect with the distributed counter cache).',
          ),
        ),
      },
      'Parameters of the token bucket.',
    ),
    selectors: Selectors,
  },
  'A token-bucket rate limiter enforced by the agents of its selectors (429 when a flow is turned away).',
);

export const rateLimiterKind: Publishing<typeof rateLimiterContract> = defineKind({
  path: ['flow_control', 'rate_limiter'],
  publishes: [rateLimiterContract],
  schema,
  compile(spec, ctx) {
    bucketInputs(spec.in_ports, ctx);
    const p = spec.parameters;
    const parameters = bucketParameters(p, p.label_key, p.tokens_label_key ?? 'tokens', ctx);
    publishByGroup(ctx, spec.selectors, `${ctx.path}.selectors`, { kind: 'rate_limiter', parameters });
    return bucketCompiled('rate_limiter');
  },
});
