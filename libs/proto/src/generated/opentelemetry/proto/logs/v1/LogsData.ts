// Original file: proto/opentelemetry/proto/logs/v1/logs.proto

import type { ResourceLogs as _opentelemetry_proto_logs_v1_ResourceLogs, ResourceLogs__Output as _opentelemetry_proto_logs_v1_ResourceLogs__Output } from '../../../../opentelemetry/proto/logs/v1/ResourceLogs.js';

/**
 * LogsData represents the logs data that can be stored in a persistent storage,
 * OR can be embedded by other protocols that transfer OTLP logs data but do not
 * implement the OTLP protocol.
 * 
 * The main difference between this message and collector protocol is that
 * in this message there will not be any "control" or "metadata" specific to
 * OTLP protocol.
 * 
 * When new fields are added into this message, the OTLP request MUST be updated
 * as well.
 */
export interface LogsData {
  /**
   * An array of ResourceLogs.
   * For data coming from a single resource this array will typically contain
   * one element. Intermediary nodes that receive data from multiple origins
   * typically batch the data before forwarding further and in that case this
   * array will contain multiple elements.
   */
  'resource_logs'?: (_opentelemetry_proto_logs_v1_ResourceLogs)[];
}

/**
 * LogsData represents the logs data that can be stored in a persistent storage,
 * OR can be embedded by other protocols that transfer OTLP logs data but do not
 * implement the OTLP protocol.
 * 
 * The main difference between this message and collector protocol is that
 * in this message there will not be any "control" or "metadata" specific to
 * OTLP protocol.
 * 
 * When new fields are added into this message, the OTLP request MUST be updated
 * as well.
 */
export interface LogsData__Output {
  /**
   * An array of ResourceLogs.
   * For data coming from a single resource this array will typically contain
   * one element. Intermediary nodes that receive data from multiple origins
   * typically batch the data before forwarding further and in that case this
   * array will contain multiple elements.
   */
  'resource_logs': (_opentelemetry_proto_logs_v1_ResourceLogs__Output)[];
}
