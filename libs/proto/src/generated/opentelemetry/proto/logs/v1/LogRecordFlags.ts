// Original file: proto/opentelemetry/proto/logs/v1/logs.proto

/**
 * LogRecordFlags represents constants used to interpret the
 * LogRecord.flags field, which is protobuf 'fixed32' type and is to
 * be used as bit-fields. Each non-zero value defined in this enum is
 * a bit-mask.  To extract the bit-field, for example, use an
 * expression like:
 * 
 * (logRecord.flags & LOG_RECORD_FLAGS_TRACE_FLAGS_MASK)
 */
export const LogRecordFlags = {
  /**
   * The zero value for the enum. Should not be used for comparisons.
   * Instead use bitwise "and" with the appropriate mask as shown above.
   */
  LOG_RECORD_FLAGS_DO_NOT_USE: 'LOG_RECORD_FLAGS_DO_NOT_USE',
  /**
   * Bits 0-7 are used for trace flags.
   */
  LOG_RECORD_FLAGS_TRACE_FLAGS_MASK: 'LOG_RECORD_FLAGS_TRACE_FLAGS_MASK',
} as const;

/**
 * LogRecordFlags represents constants used to interpret the
 * LogRecord.flags field, which is protobuf 'fixed32' type and is to
 * be used as bit-fields. Each non-zero value defined in this enum is
 * a bit-mask.  To extract the bit-field, for example, use an
 * expression like:
 * 
 * (logRecord.flags & LOG_RECORD_FLAGS_TRACE_FLAGS_MASK)
 */
export type LogRecordFlags =
  /**
   * The zero value for the enum. Should not be used for comparisons.
   * Instead use bitwise "and" with the appropriate mask as shown above.
   */
  | 'LOG_RECORD_FLAGS_DO_NOT_USE'
  | 0
  /**
   * Bits 0-7 are used for trace flags.
   */
  | 'LOG_RECORD_FLAGS_TRACE_FLAGS_MASK'
  | 255

/**
 * LogRecordFlags represents constants used to interpret the
 * LogRecord.flags field, which is protobuf 'fixed32' type and is to
 * be used as bit-fields. Each non-zero value defined in this enum is
 * a bit-mask.  To extract the bit-field, for example, use an
 * expression like:
 * 
 * (logRecord.flags & LOG_RECORD_FLAGS_TRACE_FLAGS_MASK)
 */
export type LogRecordFlags__Output = typeof LogRecordFlags[keyof typeof LogRecordFlags]
