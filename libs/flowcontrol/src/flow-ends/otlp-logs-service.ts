import { otlpMessages as loadOtlpMessages } from '@sluice/proto';
import type { LogAttributes } from './envoy-access-log.js';
import { registerOtlpExportService, type OtlpMessageType, type OtlpServer } from './otlp-export-service.js';

/**
 * The OTLP logs protocol's messages, read by protobufjs from the OpenTelemetry protos
 * in @sluice/proto (proto/opentelemetry), as the trace intake; only the parts read here are typed.
 */
interface LongLike { toNumber(): number }
interface AnyValueMsg {
  value?: string;
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: number | LongLike | string | null;
  doubleValue?: number | null;
}
interface KeyValueMsg { key?: string | null; value?: AnyValueMsg | null }
interface LogRecordMsg { attributes?: KeyValueMsg[] | null }
interface ExportLogsRequestMsg { resourceLogs?: { scopeLogs?: { logRecords?: LogRecordMsg[] | null }[] | null }[] | null }
interface ExportLogsResponseMsg { partialSuccess?: { rejectedLogRecords: number; errorMessage: string } }
interface LogsMessages {
  ExportLogsServiceRequest: OtlpMessageType<ExportLogsRequestMsg>;
  ExportLogsServiceResponse: OtlpMessageType<ExportLogsResponseMsg>;
}

function otlpMessages(): LogsMessages {
  return loadOtlpMessages() as unknown as LogsMessages;
}

export const OTLP_LOGS_SERVICE = 'opentelemetry.proto.collector.logs.v1.LogsService';

/** Most log records of one export read; the rest are answered as rejected. */
export const MAX_LOG_RECORDS_PER_EXPORT = 100_000;

/** What happens to each log record of an export: `true` taken (or not ours, ignored), or why it is rejected. */
export interface LogRecordConsumer {
  consumeAccessLog(attributes: LogAttributes): true | string;
}

function scalar(v: AnyValueMsg | null | undefined): string | number | boolean | undefined {
  if (v === null || v === undefined) return undefined;
  switch (v.value) {
    case 'stringValue': return typeof v.stringValue === 'string' ? v.stringValue : undefined;
    case 'boolValue': return v.boolValue === true;
    case 'intValue': {
      const i = v.intValue;
      return typeof i === 'number' ? i : typeof i === 'string' ? Number(i) : i !== null && i !== undefined ? i.toNumber() : undefined;
    }
    case 'doubleValue': return typeof v.doubleValue === 'number' ? v.doubleValue : undefined;
    default: return undefined;
  }
}

function attributesOf(record: LogRecordMsg): Map<string, string | number | boolean> {
  const out = new Map<string, string | number | boolean>();
  for (const kv of record.attributes ?? []) {
    if (typeof kv.key !== 'string') continue;
    const value = scalar(kv.value);
    if (value !== undefined) out.set(kv.key, value);
  }
  return out;
}

/** Hand every log record of a decoded export to `consumer`; answers how many it rejected and the first reason. */
export function consumeLogsExport(request: ExportLogsRequestMsg, consumer: LogRecordConsumer): { rejected: number; firstError: string } {
  let rejected = 0;
  let seen = 0;
  let firstError = '';
  for (const rl of request.resourceLogs ?? []) {
    for (const sl of rl.scopeLogs ?? []) {
      for (const record of sl.logRecords ?? []) {
        seen++;
        let ok: true | string = `more than ${MAX_LOG_RECORDS_PER_EXPORT} log records in one export`;
        if (seen <= MAX_LOG_RECORDS_PER_EXPORT) {
          try {
            ok = consumer.consumeAccessLog(attributesOf(record));
          } catch {
            ok = 'a log record carries Aperture attributes that cannot be read';
          }
        }
        if (ok !== true) {
          rejected++;
          if (firstError === '') firstError = ok;
        }
      }
    }
  }
  return { rejected, firstError };
}

/**
 * `opentelemetry.proto.collector.logs.v1.LogsService/Export`, where Envoy's
 * OpenTelemetry access logger sends one record per request: each record is
 * handed to `consumer` (FlowEnds ends the flow its check response names);
 * answers success, with `partial_success {rejected_log_records,
 * error_message}` when some were rejected. A body that is not an export is
 * INVALID_ARGUMENT. Registered on the server before it starts.
 */
export function registerOtlpLogsService(server: OtlpServer, consumer: LogRecordConsumer): void {
  registerOtlpExportService<ExportLogsRequestMsg, ExportLogsResponseMsg>(server, {
    service: OTLP_LOGS_SERVICE,
    requestName: 'ExportLogsServiceRequest',
    request: () => otlpMessages().ExportLogsServiceRequest,
    response: () => otlpMessages().ExportLogsServiceResponse,
  }, (request) => {
    const { rejected, firstError } = consumeLogsExport(request, consumer);
    return rejected === 0 ? {} : { partialSuccess: { rejectedLogRecords: rejected, errorMessage: firstError } };
  });
}
