import path from 'node:path';
import protobuf from 'protobufjs';
import { PROTO_DIR } from './files.js';

/** The OpenTelemetry collector protos the agent serves (in proto/third_party, as OpenTelemetry publishes them). */
export const OTLP_PROTO_FILES = {
  trace: 'opentelemetry/proto/collector/trace/v1/trace_service.proto',
  logs: 'opentelemetry/proto/collector/logs/v1/logs_service.proto',
} as const;

export interface OtlpMessages {
  ExportTraceServiceRequest: protobuf.Type;
  ExportTraceServiceResponse: protobuf.Type;
  ExportLogsServiceRequest: protobuf.Type;
  ExportLogsServiceResponse: protobuf.Type;
}

let messages: OtlpMessages | undefined;

/**
 * The OTLP export messages as protobufjs types, loaded at the first call (fields in camelCase,
 * oneofs named by their set field, as protobufjs reads them).
 */
export function otlpMessages(): OtlpMessages {
  if (messages === undefined) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(PROTO_DIR, 'third_party', target));
    root.loadSync(Object.values(OTLP_PROTO_FILES));
    root.resolveAll();
    messages = {
      ExportTraceServiceRequest: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
      ExportTraceServiceResponse: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
      ExportLogsServiceRequest: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
      ExportLogsServiceResponse: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
    };
  }
  return messages;
}

/** Whether otlpMessages has loaded the protos yet. */
export function otlpMessagesLoaded(): boolean {
  return messages !== undefined;
}
