import { Type } from '@sinclair/typebox';
import { address, bool, duration, oneOf, secret, str } from './fields.js';
import { ClientConfigSchema } from './clients.js';

const INSTALLATION_MODES = ['KUBERNETES_SIDECAR', 'KUBERNETES_DAEMONSET', 'LINUX_BARE_METAL'] as const;

const common = {
  api_key: secret('API key of this process for the cloud service; the extension stays off while it is empty.'),
  controller_id: str('', 'Identifier of the controller in the cloud service.'),
  disable_local_otel_pipeline: bool(false, 'Leaves out the local metrics pipeline.'),
  endpoint: address('empty|hostname_port|url|fqdn', '', 'Address of the cloud service; an HTTP(S) address starts with http:// or https://.'),
  heartbeat_interval: duration('5s', 'Time between two heartbeats sent to the cloud service.'),
  installation_mode: oneOf(INSTALLATION_MODES, 'LINUX_BARE_METAL', 'How this process is installed, as reported to the cloud service.'),
  client: ClientConfigSchema,
};

export const CloudExtensionConfigSchema = Type.Object(common, { additionalProperties: false });

export const ControllerCloudExtensionConfigSchema = Type.Object({
  ...common,
  disable_local_otel_pipeline: bool(false, 'Leaves out the local metrics pipeline; implied true by enable_cloud_controller.'),
  enable_cloud_controller: bool(false, 'Uses the cloud controller, which overrides the etcd and TLS configuration.'),
}, { additionalProperties: false });
