// Original file: proto/opentelemetry/proto/logs/v1/logs.proto

import type { Resource as _opentelemetry_proto_resource_v1_Resource, Resource__Output as _opentelemetry_proto_resource_v1_Resource__Output } from '../../../../opentelemetry/proto/resource/v1/Resource.js';
import type { ScopeLogs as _opentelemetry_proto_logs_v1_ScopeLogs, ScopeLogs__Output as _opentelemetry_proto_logs_v1_ScopeLogs__Output } from '../../../../opentelemetry/proto/logs/v1/ScopeLogs.js';

/**
 * A collection of ScopeLogs from a Resource.
 */
export interface ResourceLogs {
  /**
   * The resource for the logs in this message.
   * If this field is not set then resource info is unknown.
   */
  'resource'?: (_opentelemetry_proto_resource_v1_Resource | null);
  /**
   * A list of ScopeLogs that originate from a resource.
   */
  'scope_logs'?: (_opentelemetry_proto_logs_v1_ScopeLogs)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the resource data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "resource" field. It does not apply
   * to the data in the "scope_logs" field which have their own schema_url field.
   */
  'schema_url'?: (string);
}

/**
 * A collection of ScopeLogs from a Resource.
 */
export interface ResourceLogs__Output {
  /**
   * The resource for the logs in this message.
   * If this field is not set then resource info is unknown.
   */
  'resource': (_opentelemetry_proto_resource_v1_Resource__Output | null);
  /**
   * A list of ScopeLogs that originate from a resource.
   */
  'scope_logs': (_opentelemetry_proto_logs_v1_ScopeLogs__Output)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the resource data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "resource" field. It does not apply
   * to the data in the "scope_logs" field which have their own schema_url field.
   */
  'schema_url': (string);
}
