import { otlpMessages as loadOtlpMessages } from '@sluice/proto';
import { registerOtlpExportService, type OtlpMessageType, type OtlpServer } from './otlp-export-service.js';
import type { ReceivedSpan, SpanAttributeValue } from './sdk-flow-span.js';

/**
 * The OTLP trace protocol's messages, read by protobufjs from the OpenTelemetry protos
 * in @sluice/proto (proto/opentelemetry); only the parts read here are typed.
 */
interface LongLike { toNumber(): number }
type Int64 = number | LongLike | string | null | undefined;
interface AnyValueMsg {
  value?: string;
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64;
  doubleValue?: number | null;
}
interface KeyValueMsg { key?: string | null; value?: AnyValueMsg | null }
interface SpanMsg { startTimeUnixNano?: Int64; endTimeUnixNano?: Int64; attributes?: KeyValueMsg[] | null }
export interface ExportRequestMsg { resourceSpans?: { scopeSpans?: { spans?: SpanMsg[] | null }[] | null }[] | null }
interface ExportResponseMsg { partialSuccess?: { rejectedSpans: number; errorMessage: string } }
interface MessageType<T> extends OtlpMessageType<T> {
  fromObject(obj: Record<string, unknown>): T;
}
interface TraceMessages {
  ExportTraceServiceRequest: MessageType<ExportRequestMsg>;
  ExportTraceServiceResponse: MessageType<ExportResponseMsg>;
}

/** The OTLP trace messages (loaded at the first call). */
export function otlpMessages(): TraceMessages {
  return loadOtlpMessages() as unknown as TraceMessages;
}

export const OTLP_TRACE_SERVICE = 'opentelemetry.proto.collector.trace.v1.TraceService';

/** Most spans of one export read; the rest are answered as rejected. */
export const MAX_SPANS_PER_EXPORT = 100_000;

/** What happens to each span of an export: `true` taken (or not ours, ignored), `false` or why (a string) rejected. */
export interface SpanConsumer {
  consume(span: ReceivedSpan): boolean | string;
}

function int64(v: Int64): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v);
  if (v !== null && v !== undefined && typeof v.toNumber === 'function') return v.toNumber();
  return NaN;
}

function attributeValue(v: AnyValueMsg | null | undefined): SpanAttributeValue | undefined {
  if (v === null || v === undefined) return undefined;
  switch (v.value) {
    case 'stringValue': return typeof v.stringValue === 'string' ? v.stringValue : undefined;
    case 'boolValue': return v.boolValue === true;
    case 'intValue': return int64(v.intValue);
    case 'doubleValue': return typeof v.doubleValue === 'number' ? v.doubleValue : undefined;
    default: return undefined;
  }
}

/** A decoded span in the receiver's shape: scalar attributes, times in epoch ms. */
function receivedSpan(span: SpanMsg): ReceivedSpan {
  const attributes = new Map<string, SpanAttributeValue>();
  for (const kv of span.attributes ?? []) {
    if (typeof kv.key !== 'string') continue;
    const value = attributeValue(kv.value);
    if (value !== undefined) attributes.set(kv.key, value);
  }
  const nanos = (v: Int64): number => {
    const n = int64(v);
    return n > 0 ? n / 1e6 : NaN;
  };
  return { attributes, startTimeMs: nanos(span.startTimeUnixNano), endTimeMs: nanos(span.endTimeUnixNano) };
}

/** Hand every span of a decoded export to `consumer`; answers how many it rejected. */
export function consumeExport(request: ExportRequestMsg, consumer: SpanConsumer): { rejected: number; firstError: string } {
  let rejected = 0;
  let seen = 0;
  let firstError = '';
  for (const rs of request.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        seen++;
        let ok: boolean | string = false;
        if (seen <= MAX_SPANS_PER_EXPORT) {
          try {
            ok = consumer.consume(receivedSpan(span));
          } catch {
            ok = false;
          }
        }
        if (ok !== true) {
          rejected++;
          if (firstError === '') {
            firstError = seen > MAX_SPANS_PER_EXPORT ? `more than ${MAX_SPANS_PER_EXPORT} spans in one export`
              : typeof ok === 'string' ? ok : 'a span carries Aperture attributes that cannot be read';
          }
        }
      }
    }
  }
  return { rejected, firstError };
}

/**
 * `opentelemetry.proto.collector.trace.v1.TraceService/Export`: decodes the
 * export, hands each span to `consumer`, and answers success, with
 * `partial_success {rejected_spans, error_message}` when some were rejected.
 * Registered on the server before it starts.
 */
export function registerOtlpTraceService(server: OtlpServer, consumer: SpanConsumer): void {
  registerOtlpExportService<ExportRequestMsg, ExportResponseMsg>(server, {
    service: OTLP_TRACE_SERVICE,
    requestName: 'ExportTraceServiceRequest',
    request: () => otlpMessages().ExportTraceServiceRequest,
    response: () => otlpMessages().ExportTraceServiceResponse,
  }, (request) => {
    const { rejected, firstError } = consumeExport(request, consumer);
    return rejected === 0 ? {} : { partialSuccess: { rejectedSpans: rejected, errorMessage: firstError } };
  });
}
