import { Type } from '@sinclair/typebox';
import { noEffect, objectList, str } from './fields.js';
import { HTTPClientConfigSchema } from './clients.js';

export const PrometheusLabelSchema = Type.Object({
  name: Type.String({ minLength: 1, description: 'Label name.', 'x-spec-type': 'string' }),
  value: str('', 'Label value.'),
}, { additionalProperties: false });

export const PrometheusConfigSchema = Type.Object({
  address: Type.String({
    default: '',
    format: 'hostname_port|url|fqdn',
    description: 'Address of the Prometheus server (host:port or URL): the controller runs its PromQL queries there (required by the controller); when set, the process also pushes its metrics to <address>/api/v1/write by Prometheus remote write every otel.export_interval.',
    'x-spec-type': 'string',
    'x-required': true,
  }),
  labels: objectList(PrometheusLabelSchema, 'PrometheusLabel', 'Labels attached to every query (JSON list of {name, value} in the env variable).'),
}, { additionalProperties: false });

/** The `prometheus` subtree: PrometheusConfig plus `http_client`. */
export const PrometheusTreeSchema = Type.Object({
  ...PrometheusConfigSchema.properties,
  http_client: HTTPClientConfigSchema,
}, { additionalProperties: false });

/**
 * The agent's `prometheus` subtree: the same keys; the agent pushes its metrics to `address` by
 * remote write and sends no queries, so `labels` (attached to queries) has nothing to attach to.
 */
export const AgentPrometheusTreeSchema = Type.Object({
  ...PrometheusTreeSchema.properties,
  labels: noEffect(PrometheusTreeSchema.properties.labels, 'the agent sends no PromQL queries (it pushes its metrics by remote write, labelled job, instance, agent_group, pod and namespace); the controller\'s prometheus.labels scope its queries.'),
}, { additionalProperties: false });
