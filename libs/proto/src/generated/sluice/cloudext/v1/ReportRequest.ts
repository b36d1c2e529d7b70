// Original file: proto/sluice/cloudext/v1/heartbeat.proto

import type { PolicyInfo as _sluice_cloudext_v1_PolicyInfo, PolicyInfo__Output as _sluice_cloudext_v1_PolicyInfo__Output } from '../../../sluice/cloudext/v1/PolicyInfo.js';
import type { ServiceInfo as _sluice_cloudext_v1_ServiceInfo, ServiceInfo__Output as _sluice_cloudext_v1_ServiceInfo__Output } from '../../../sluice/cloudext/v1/ServiceInfo.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { Long } from '@grpc/proto-loader';

export interface ReportRequest {
  /**
   * `sluice-agent` or `sluice-controller`.
   */
  'service'?: (string);
  /**
   * Version of Sluice.
   */
  'version'?: (string);
  /**
   * Host name of the machine (or pod) the process runs on.
   */
  'hostname'?: (string);
  /**
   * A random identifier of this run of the process (new at every start).
   */
  'instance_id'?: (string);
  /**
   * The agent's `agent_info.agent_group`; empty for the controller.
   */
  'agent_group'?: (string);
  /**
   * `cloudext.controller_id`.
   */
  'controller_id'?: (string);
  /**
   * `cloudext.installation_mode`.
   */
  'installation_mode'?: (string);
  /**
   * The policies this process enforces (agent) or runs (controller), with the hash of each.
   */
  'policies'?: (_sluice_cloudext_v1_PolicyInfo)[];
  /**
   * The services this process has seen flows of (agent); none for the controller.
   */
  'services'?: (_sluice_cloudext_v1_ServiceInfo)[];
  /**
   * 1 for the first heartbeat of a run, then one more for each heartbeat delivered.
   */
  'sequence'?: (number | string | Long);
  /**
   * When this heartbeat was sent.
   */
  'sent_at'?: (_google_protobuf_Timestamp | null);
}

export interface ReportRequest__Output {
  /**
   * `sluice-agent` or `sluice-controller`.
   */
  'service': (string);
  /**
   * Version of Sluice.
   */
  'version': (string);
  /**
   * Host name of the machine (or pod) the process runs on.
   */
  'hostname': (string);
  /**
   * A random identifier of this run of the process (new at every start).
   */
  'instance_id': (string);
  /**
   * The agent's `agent_info.agent_group`; empty for the controller.
   */
  'agent_group': (string);
  /**
   * `cloudext.controller_id`.
   */
  'controller_id': (string);
  /**
   * `cloudext.installation_mode`.
   */
  'installation_mode': (string);
  /**
   * The policies this process enforces (agent) or runs (controller), with the hash of each.
   */
  'policies': (_sluice_cloudext_v1_PolicyInfo__Output)[];
  /**
   * The services this process has seen flows of (agent); none for the controller.
   */
  'services': (_sluice_cloudext_v1_ServiceInfo__Output)[];
  /**
   * 1 for the first heartbeat of a run, then one more for each heartbeat delivered.
   */
  'sequence': (number);
  /**
   * When this heartbeat was sent.
   */
  'sent_at': (_google_protobuf_Timestamp__Output | null);
}
