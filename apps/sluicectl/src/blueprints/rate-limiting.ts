import { defineBlueprint } from './blueprint.js';
import { bool, duration, num, obj, selectors, str, valuesSchema, type Selector } from './schema.js';

interface Values {
  policy_name: string;
  evaluation_interval: string;
  rate_limiter: {
    bucket_capacity: number;
    fill_amount: number;
    interval: string;
    label_key?: string;
    continuous_fill: boolean;
    selectors: Selector[];
  };
}

const NAME = 'rate-limiting';

/** A token bucket per value of a flow label: `fill_amount` tokens every `interval`, bursts up to `bucket_capacity`. */
export const rateLimiting = defineBlueprint<Values>({
  name: NAME,
  description: 'Token-bucket rate limit, per value of a flow label',
  schema: valuesSchema(NAME, 'Values of the rate-limiting blueprint.', {
    rate_limiter: obj('The rate limiter.', {
      bucket_capacity: num('Most tokens a bucket holds: the largest burst (≥ 0).', { minimum: 0 }),
      fill_amount: num('Tokens added to a bucket every interval: the sustained rate (≥ 0).', { minimum: 0 }),
      interval: duration('The interval over which fill_amount tokens are added (> 0).', '1s'),
      label_key: str('The flow label whose value keys a bucket (e.g. http.request.header.user); absent: one bucket for all flows.', { minLength: 1 }),
      continuous_fill: bool('Add tokens continuously over the interval instead of once per interval.', true),
      selectors,
    }, ['bucket_capacity', 'fill_amount']),
  }, ['rate_limiter']),
  example: {
    blueprint: NAME,
    policy_name: 'rate-limit-per-user',
    rate_limiter: {
      bucket_capacity: 20,
      fill_amount: 10,
      interval: '1s',
      label_key: 'http.request.header.user',
      selectors: [{ control_point: 'ingress' }],
    },
  },
  spec: (v) => ({
    circuit: {
      evaluation_interval: v.evaluation_interval,
      components: [{
        flow_control: {
          rate_limiter: {
            in_ports: {
              bucket_capacity: { constant_signal: { value: v.rate_limiter.bucket_capacity } },
              fill_amount: { constant_signal: { value: v.rate_limiter.fill_amount } },
            },
            parameters: {
              interval: v.rate_limiter.interval,
              continuous_fill: v.rate_limiter.continuous_fill,
              ...(v.rate_limiter.label_key !== undefined ? { label_key: v.rate_limiter.label_key } : {}),
            },
            selectors: v.rate_limiter.selectors,
          },
        },
      }],
    },
  }),
});
