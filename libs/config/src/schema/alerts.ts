import { Type } from '@sinclair/typebox';
import { HTTPClientConfigSchema } from './clients.js';
import { stringList } from './fields.js';

/**
 * The controller's `alerts` subtree (a Sluice addition): where the alerts of `alerter` components
 * go. Batches follow `otel.batch_alerts`.
 */
export const AlertsConfigSchema = Type.Object({
  alertmanagers: stringList(
    'Alertmanagers the controller sends the alerts of alerter components to (`POST <url>/api/v2/alerts`, batched as `otel.batch_alerts` says), each an absolute URL such as `http://alertmanager:9093`; empty: alerts are only listed on `GET /v1/alerts`. A Sluice addition (JSON list in the env variable).',
    'url',
  ),
  http_client: HTTPClientConfigSchema,
}, { additionalProperties: false });
