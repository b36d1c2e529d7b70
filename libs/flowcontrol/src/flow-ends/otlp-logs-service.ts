import type * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError } from '@sluice/errors';
import { otlpMessages as loadOtlpMessages } from '@sluice/proto';
import { unary } from '@sluice/server';
import type { LogAttributes } from './envoy-access-log.js';

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
interface MessageType<T> {
  decode(buf: Uint8Array): T;
  encode(msg: T): { finish(): Uint8Array };
}
interface LogsMessages {
  ExportLogsServiceRequest: MessageType<ExportLogsRequestMsg>;
  ExportLogsServiceResponse: MessageType<ExportLogsResponseMsg>;
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

/** The OTLP/gRPC logs service definition (`Export`): requests stay bytes until the handler decodes them. */
export function otlpLogsServiceDefinition(): grpc.ServiceDefinition {
  return {
    Export: {
      path: `/${OTLP_LOGS_SERVICE}/Export`,
      requestStream: false,
      responseStream: false,
      originalName: 'export',
      requestSerialize: (b: Buffer) => b,
      requestDeserialize: (b: Buffer) => b,
      responseSerialize: (r: ExportLogsResponseMsg) => Buffer.from(otlpMessages().ExportLogsServiceResponse.encode(r).finish()),
      responseDeserialize: (b: Buffer) => otlpMessages().ExportLogsServiceResponse.decode(b),
    },
  };
}

/**
 * `opentelemetry.proto.collector.logs.v1.LogsService/Export`, where Envoy's
 * OpenTelemetry access logger sends one record per request: each record is
 * handed to `consumer` (FlowEnds ends the flow its check response names);
 * answers success, with `partial_success {rejected_log_records,
 * error_message}` when some were rejected. A body that is not an export is
 * INVALID_ARGUMENT.
 */
export function otlpLogsServiceImpl(consumer: LogRecordConsumer): grpc.UntypedServiceImplementation {
  return {
    Export: unary<Buffer, ExportLogsResponseMsg>((body) => {
      let request: ExportLogsRequestMsg;
      try {
        request = otlpMessages().ExportLogsServiceRequest.decode(body);
      } catch (err) {
        throw new InvalidArgumentError(`not an OTLP ExportLogsServiceRequest: ${err instanceof Error ? err.message : String(err)}`);
      }
      const { rejected, firstError } = consumeLogsExport(request, consumer);
      return rejected === 0 ? {} : { partialSuccess: { rejectedLogRecords: rejected, errorMessage: firstError } };
    }),
  };
}

/** Register the OTLP logs service on the server (before start). */
export function registerOtlpLogsService(server: { addService(def: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void }, consumer: LogRecordConsumer): void {
  server.addService(otlpLogsServiceDefinition(), otlpLogsServiceImpl(consumer));
}
