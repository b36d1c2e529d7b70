import * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError } from '@sluice/errors';
import { otlpMessages as loadOtlpMessages } from '@sluice/proto';
import { unary } from '@sluice/server';
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
interface MessageType<T> {
  decode(buf: Uint8Array): T;
  fromObject(obj: Record<string, unknown>): T;
  encode(msg: T): { finish(): Uint8Array };
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
 * The OTLP/gRPC trace service definition (`Export`): requests stay bytes
 * until the handler decodes them, so a body that is not an export request
 * is answered INVALID_ARGUMENT instead of failing inside grpc-js.
 */
export function otlpTraceServiceDefinition(): grpc.ServiceDefinition {
  // The generated OTLP root (about 1 MB of heap) loads at the first export, not at start-up.
  return {
    Export: {
      path: `/${OTLP_TRACE_SERVICE}/Export`,
      requestStream: false,
      responseStream: false,
      originalName: 'export',
      requestSerialize: (b: Buffer) => b,
      requestDeserialize: (b: Buffer) => b,
      responseSerialize: (r: ExportResponseMsg) => Buffer.from(otlpMessages().ExportTraceServiceResponse.encode(r).finish()),
      responseDeserialize: (b: Buffer) => otlpMessages().ExportTraceServiceResponse.decode(b),
    },
  };
}

/**
 * `opentelemetry.proto.collector.trace.v1.TraceService/Export`: decodes the
 * export, hands each span to `consumer`, and answers success, with
 * `partial_success {rejected_spans, error_message}` when some were rejected.
 */
export function otlpTraceServiceImpl(consumer: SpanConsumer): grpc.UntypedServiceImplementation {
  return {
    Export: unary<Buffer, ExportResponseMsg>((body) => {
      let request: ExportRequestMsg;
      try {
        request = otlpMessages().ExportTraceServiceRequest.decode(body);
      } catch (err) {
        throw new InvalidArgumentError(`not an OTLP ExportTraceServiceRequest: ${err instanceof Error ? err.message : String(err)}`);
      }
      const { rejected, firstError } = consumeExport(request, consumer);
      return rejected === 0 ? {} : { partialSuccess: { rejectedSpans: rejected, errorMessage: firstError } };
    }),
  };
}

/** Register the OTLP trace service on the server (before start). */
export function registerOtlpTraceService(server: { addService(def: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void }, consumer: SpanConsumer): void {
  server.addService(otlpTraceServiceDefinition(), otlpTraceServiceImpl(consumer));
}
