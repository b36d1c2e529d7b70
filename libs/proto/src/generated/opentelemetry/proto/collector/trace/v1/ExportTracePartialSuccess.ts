// Original file: proto/opentelemetry/proto/collector/trace/v1/trace_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ExportTracePartialSuccess {
  /**
   * The number of rejected spans.
   * 
   * A `rejected_<signal>` field holding a `0` value indicates that the
   * request was fully accepted.
   */
  'rejected_spans'?: (number | string | Long);
  /**
   * A developer-facing human-readable message in English. It should be used
   * either to explain why the server rejected parts of the data during a partial
   * success or to convey warnings/suggestions during a full success. The message
   * should offer guidance on how users can address such issues.
   * 
   * error_message is an optional field. An error_message with an empty value
   * is equivalent to it not being set.
   */
  'error_message'?: (string);
}

export interface ExportTracePartialSuccess__Output {
  /**
   * The number of rejected spans.
   * 
   * A `rejected_<signal>` field holding a `0` value indicates that the
   * request was fully accepted.
   */
  'rejected_spans': (number);
  /**
   * A developer-facing human-readable message in English. It should be used
   * either to explain why the server rejected parts of the data during a partial
   * success or to convey warnings/suggestions during a full success. The message
   * should offer guidance on how users can address such issues.
   * 
   * error_message is an optional field. An error_message with an empty value
   * is equivalent to it not being set.
   */
  'error_message': (string);
}
