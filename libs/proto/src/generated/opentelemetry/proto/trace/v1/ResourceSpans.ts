// Original file: proto/opentelemetry/proto/trace/v1/trace.proto

import type { Resource as _opentelemetry_proto_resource_v1_Resource, Resource__Output as _opentelemetry_proto_resource_v1_Resource__Output } from '../../../../opentelemetry/proto/resource/v1/Resource.js';
import type { ScopeSpans as _opentelemetry_proto_trace_v1_ScopeSpans, ScopeSpans__Output as _opentelemetry_proto_trace_v1_ScopeSpans__Output } from '../../../../opentelemetry/proto/trace/v1/ScopeSpans.js';

/**
 * A collection of ScopeSpans from a Resource.
 */
export interface ResourceSpans {
  /**
   * The resource for the spans in this message.
   * If this field is not set then no resource info is known.
   */
  'resource'?: (_opentelemetry_proto_resource_v1_Resource | null);
  /**
   * A list of ScopeSpans that originate from a resource.
   */
  'scope_spans'?: (_opentelemetry_proto_trace_v1_ScopeSpans)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the resource data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "resource" field. It does not apply
   * to the data in the "scope_spans" field which have their own schema_url field.
   */
  'schema_url'?: (string);
}

/**
 * A collection of ScopeSpans from a Resource.
 */
export interface ResourceSpans__Output {
  /**
   * The resource for the spans in this message.
   * If this field is not set then no resource info is known.
   */
  'resource': (_opentelemetry_proto_resource_v1_Resource__Output | null);
  /**
   * A list of ScopeSpans that originate from a resource.
   */
  'scope_spans': (_opentelemetry_proto_trace_v1_ScopeSpans__Output)[];
  /**
   * The Schema URL, if known. This is the identifier of the Schema that the resource data
   * is recorded in. Notably, the last part of the URL path is the version number of the
   * schema: http[s]://server[:port]/path/<version>. To learn more about Schema URL see
   * https://opentelemetry.io/docs/specs/otel/schemas/#schema-url
   * This schema_url applies to the data in the "resource" field. It does not apply
   * to the data in the "scope_spans" field which have their own schema_url field.
   */
  'schema_url': (string);
}
