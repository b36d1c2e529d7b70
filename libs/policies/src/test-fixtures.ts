/** Policies used by the tests of this package. */

export function rateLimiterPolicy(): Record<string, unknown> {
  return {
    circuit: {
      evaluation_interval: '1s',
      components: [
        {
          flow_control: {
            rate_limiter: {
              in_ports: { bucket_capacity: { constant_signal: { value: 20 } }, fill_amount: { constant_signal: { value: 10 } } },
              parameters: { label_key: 'http.request.header.user', interval: '1s' },
              selectors: [{ control_point: 'ingress' }],
            },
          },
        },
      ],
    },
  };
}

/** capacity = 2 × PromQL, or 10 when the query has no answer (switcher + decider form). */
export function promqlCapacityPolicy(): Record<string, unknown> {
  return {
    circuit: {
      components: [
        { query: { promql: { query_string: 'sum(rate(x[1m]))', out_ports: { output: { signal_name: 'Q' } } } } },
        {
          arithmetic_combinator: {
            operator: 'mul',
            in_ports: { lhs: { signal_name: 'Q' }, rhs: { constant_signal: { value: 2 } } },
            out_ports: { output: { signal_name: 'DOUBLE' } },
          },
        },
        {
          decider: {
            operator: 'gt',
            in_ports: { lhs: { signal_name: 'DOUBLE' }, rhs: { constant_signal: { special_value: '-Inf' } } },
            out_ports: { output: { signal_name: 'HAVE' } },
          },
        },
        {
          switcher: {
            in_ports: { on_signal: { signal_name: 'DOUBLE' }, off_signal: { constant_signal: { value: 10 } }, switch: { signal_name: 'HAVE' } },
            out_ports: { output: { signal_name: 'CAP' } },
          },
        },
        {
          flow_control: {
            rate_limiter: {
              in_ports: { bucket_capacity: { signal_name: 'CAP' }, fill_amount: { constant_signal: { value: 5 } } },
              parameters: { interval: '1s' },
              selectors: [{ control_point: 'ingress', agent_group: 'g1' }, { control_point: 'egress', agent_group: 'g2' }],
            },
          },
        },
      ],
    },
  };
}

/** A policy touching every part built: used as the seed of the property test. */
export function fullPolicy(): Record<string, unknown> {
  return {
    circuit: {
      evaluation_interval: '5s',
      components: [
        { variable: { constant_output: { value: 50 }, out_ports: { output: { signal_name: 'PCT' } } } },
        { min: { in_ports: { inputs: [{ signal_name: 'PCT' }, { constant_signal: { value: 100 } }] }, out_ports: { output: { signal_name: 'PCT2' } } } },
        {
          flow_control: {
            sampler: {
              in_ports: { accept_percentage: { signal_name: 'PCT2' } },
              parameters: { label_key: 'user', selectors: [{ control_point: 'ingress', label_matcher: { match_labels: { tier: 'free' } } }] },
              pass_through_label_values: ['ops'],
            },
          },
        },
        ...(promqlCapacityPolicy() as { circuit: { components: unknown[] } }).circuit.components,
      ],
    },
    resources: {
      flow_control: {
        classifiers: [
          {
            selectors: [{ control_point: 'ingress' }],
            rules: { tier: { extractor: { from: 'request.http.headers.x-tier' } }, customer: { extractor: { json: { from: 'request.http.body', pointer: '/id' } } } },
          },
        ],
        flux_meters: { latency: { selectors: [{ control_point: 'ingress' }], exponential_buckets: { start: 1, factor: 2, count: 5 } } },
      },
    },
  };
}
