import * as grpc from '@grpc/grpc-js';
import type { Registry } from 'prom-client';
import { FastCounter, FastHistogram, type FastCounterChild, type FastHistogramChild } from '@sluice/telemetry';
import { GrpcCode } from '@sluice/errors';

const CODE_NAMES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists',
  'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange',
  'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated',
];

/** The gRPC status code name as go-grpc-prometheus labels it (`OK`, `InvalidArgument`, ...). */
export function grpcCodeName(code: number): string {
  return CODE_NAMES[code] ?? `Code(${code})`;
}

function callType(def: { requestStream: boolean; responseStream: boolean }): string {
  if (def.requestStream) return def.responseStream ? 'bidi_stream' : 'client_stream';
  return def.responseStream ? 'server_stream' : 'unary';
}

/** `/pkg.Service/Method` → ['pkg.Service', 'Method']. */
export function splitMethodPath(path: string): [string, string] {
  const slash = path.lastIndexOf('/');
  return [path.slice(1, slash), path.slice(slash + 1)];
}

/**
 * gRPC server metrics in the go-grpc-prometheus vocabulary: grpcserver_started_total,
 * grpcserver_handled_total, grpcserver_msg_received_total, grpcserver_msg_sent_total and the
 * grpcserver_handling_seconds histogram. Unary handlers are wrapped (`wrapUnary`): cheaper
 * than an intercepting call per RPC; streaming calls go through the server interceptor
 * (`interceptor`), which passes unary calls by untouched.
 */
export class GrpcMetrics {
  private readonly started: FastCounter<LabelName>;
  private readonly handled: FastCounter<LabelName | 'grpc_code'>;
  private readonly received: FastCounter<LabelName>;
  private readonly sent: FastCounter<LabelName>;
  private readonly handling: FastHistogram<LabelName>;
  private readonly byPath = new Map<string, MethodChildren>();
  private calls = 0;

  /** Calls a handler has started and not yet answered (a call refused before its handler, e.g. for size, is none). */
  get inFlight(): number {
    return this.calls;
  }

  constructor(registry: Registry, latencyBucketsMs: number[]) {
    this.started = new FastCounter({ name: 'grpcserver_started_total', help: 'Total number of RPCs started on the server.', labelNames: LABEL_NAMES, registers: [registry] });
    this.handled = new FastCounter({
      name: 'grpcserver_handled_total', help: 'Total number of RPCs completed on the server, regardless of success or failure.',
      labelNames: [...LABEL_NAMES, 'grpc_code'], registers: [registry],
    });
    this.received = new FastCounter({ name: 'grpcserver_msg_received_total', help: 'Total number of RPC stream messages received on the server.', labelNames: LABEL_NAMES, registers: [registry] });
    this.sent = new FastCounter({ name: 'grpcserver_msg_sent_total', help: 'Total number of gRPC stream messages sent by the server.', labelNames: LABEL_NAMES, registers: [registry] });
    this.handling = new FastHistogram({
      name: 'grpcserver_handling_seconds', help: 'Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.',
      labelNames: LABEL_NAMES, buckets: latencyBucketsMs.map((ms) => ms / 1000), registers: [registry],
    });
  }

  /** One method's metric children, resolved once: label hashing is the expensive part of an update. */
  private childrenOf(def: { path: string; requestStream: boolean; responseStream: boolean }): MethodChildren {
    let c = this.byPath.get(def.path);
    if (c === undefined) {
      const [grpc_service, grpc_method] = splitMethodPath(def.path);
      const labels = { grpc_type: callType(def), grpc_service, grpc_method };
      c = {
        started: this.started.child(labels), received: this.received.child(labels), sent: this.sent.child(labels),
        handling: this.handling.child(labels), handled: new Map(), labels,
      };
      this.byPath.set(def.path, c);
    }
    return c;
  }

  private finisher(c: MethodChildren): (code: number) => void {
    const startedAt = performance.now();
    let done = false;
    this.calls++;
    return (code) => {
      if (done) return;
      done = true;
      this.calls--;
      let h = c.handled.get(code);
      if (h === undefined) {
        h = this.handled.child({ ...c.labels, grpc_code: grpcCodeName(code) });
        c.handled.set(code, h);
      }
      h.inc();
      c.handling.observe((performance.now() - startedAt) / 1000);
    };
  }

  /** A unary handler that records the call's metrics. */
  wrapUnary(def: { path: string; requestStream: boolean; responseStream: boolean }, handler: grpc.handleUnaryCall<unknown, unknown>): grpc.handleUnaryCall<unknown, unknown> {
    const c = this.childrenOf(def);
    return (call, callback) => {
      c.started.inc();
      c.received.inc();
      const finish = this.finisher(c);
      call.once('cancelled', () => finish(GrpcCode.CANCELLED));
      handler(call, (err, value, trailer, flags) => {
        if (err === null || err === undefined) {
          c.sent.inc();
          finish(GrpcCode.OK);
        } else {
          finish(typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : GrpcCode.UNKNOWN);
        }
        callback(err, value, trailer, flags);
      });
    };
  }

  /** The server interceptor for streaming calls (unary ones are wrapped instead). */
  interceptor(): grpc.ServerInterceptor {
    return (def, call) => {
      // grpc-js chains interceptors by plain reduction: handing the call on untouched is allowed.
      if (!def.requestStream && !def.responseStream) return call as grpc.ServerInterceptingCall;
      const c = this.childrenOf(def);
      const finish = this.finisher(c);
      c.started.inc();
      return new grpc.ServerInterceptingCall(call, {
        start: (next) => next({
          onReceiveMessage: (message, nextMessage) => { c.received.inc(); nextMessage(message); },
          onCancel: () => finish(GrpcCode.CANCELLED),
        }),
        sendMessage: (message, next) => { c.sent.inc(); next(message); },
        sendStatus: (status, next) => { finish(status.code); next(status); },
      });
    };
  }
}

const LABEL_NAMES = ['grpc_type', 'grpc_service', 'grpc_method'] as const;
type LabelName = (typeof LABEL_NAMES)[number];

interface MethodChildren {
  started: FastCounterChild;
  received: FastCounterChild;
  sent: FastCounterChild;
  handling: FastHistogramChild;
  handled: Map<number, FastCounterChild>;
  labels: Record<LabelName, string>;
}
