// Original file: proto/opentelemetry/proto/collector/logs/v1/logs_service.proto

import type { ResourceLogs as _opentelemetry_proto_logs_v1_ResourceLogs, ResourceLogs__Output as _opentelemetry_proto_logs_v1_ResourceLogs__Output } from '../../../../../opentelemetry/proto/logs/v1/ResourceLogs.js';

export interface ExportLogsServiceRequest {
  /**
   * An array of ResourceLogs.
   * For data coming from a single resource this array will typically contain one
   * element. Intermediary nodes (such as OpenTelemetry Collector) that receive
   * data from multiple origins typically batch the data before forwarding further and
   * in that case this array will contain multiple elements.
   */
  'resource_logs'?: (_opentelemetry_proto_logs_v1_ResourceLogs)[];
}

export interface ExportLogsServiceRequest__Output {
  /**
   * An array of ResourceLogs.
   * For data coming from a single resource this array will typically contain one
   * element. Intermediary nodes (such as OpenTelemetry Collector) that receive
   * data from multiple origins typically batch the data before forwarding further and
   * in that case this array will contain multiple elements.
   */
  'resource_logs': (_opentelemetry_proto_logs_v1_ResourceLogs__Output)[];
}
