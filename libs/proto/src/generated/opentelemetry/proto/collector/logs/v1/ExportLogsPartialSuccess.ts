// Original file: proto/opentelemetry/proto/collector/logs/v1/logs_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ExportLogsPartialSuccess {
  /**
   * The number of rejected log records.
   * 
   * A `rejected_<signal>` field holding a `0` value indicates that the
   * request was fully accepted.
   */
  'rejected_log_records'?: (number | string | Long);
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

export interface ExportLogsPartialSuccess__Output {
  /**
   * The number of rejected log records.
   * 
   * A `rejected_<signal>` field holding a `0` value indicates that the
   * request was fully accepted.
   */
  'rejected_log_records': (number);
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
