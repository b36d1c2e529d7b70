// Original file: proto/opentelemetry/proto/trace/v1/trace.proto


// Original file: proto/opentelemetry/proto/trace/v1/trace.proto

/**
 * For the semantics of status codes see
 * https://github.com/open-telemetry/opentelemetry-specification/blob/main/specification/trace/api.md#set-status
 */
export const _opentelemetry_proto_trace_v1_Status_StatusCode = {
  /**
   * The default status.
   */
  STATUS_CODE_UNSET: 'STATUS_CODE_UNSET',
  /**
   * The Span has been validated by an Application developer or Operator to
   * have completed successfully.
   */
  STATUS_CODE_OK: 'STATUS_CODE_OK',
  /**
   * The Span contains an error.
   */
  STATUS_CODE_ERROR: 'STATUS_CODE_ERROR',
} as const;

/**
 * For the semantics of status codes see
 * https://github.com/open-telemetry/opentelemetry-specification/blob/main/specification/trace/api.md#set-status
 */
export type _opentelemetry_proto_trace_v1_Status_StatusCode =
  /**
   * The default status.
   */
  | 'STATUS_CODE_UNSET'
  | 0
  /**
   * The Span has been validated by an Application developer or Operator to
   * have completed successfully.
   */
  | 'STATUS_CODE_OK'
  | 1
  /**
   * The Span contains an error.
   */
  | 'STATUS_CODE_ERROR'
  | 2

/**
 * For the semantics of status codes see
 * https://github.com/open-telemetry/opentelemetry-specification/blob/main/specification/trace/api.md#set-status
 */
export type _opentelemetry_proto_trace_v1_Status_StatusCode__Output = typeof _opentelemetry_proto_trace_v1_Status_StatusCode[keyof typeof _opentelemetry_proto_trace_v1_Status_StatusCode]

/**
 * The Status type defines a logical error model that is suitable for different
 * programming environments, including REST APIs and RPC APIs.
 */
export interface Status {
  /**
   * A developer-facing human readable error message.
   */
  'message'?: (string);
  /**
   * The status code.
   */
  'code'?: (_opentelemetry_proto_trace_v1_Status_StatusCode);
}

/**
 * The Status type defines a logical error model that is suitable for different
 * programming environments, including REST APIs and RPC APIs.
 */
export interface Status__Output {
  /**
   * A developer-facing human readable error message.
   */
  'message': (string);
  /**
   * The status code.
   */
  'code': (_opentelemetry_proto_trace_v1_Status_StatusCode__Output);
}
