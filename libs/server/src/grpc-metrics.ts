import * as grpc from '@grpc/grpc-js';
import { Counter, Histogram, type Registry } from 'prom-client';

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
 * gRPC server metrics in the go-grpc-prometheus vocabulary, recorded by a server interceptor
 * (so every registered handler type is covered): grpcserver_started_total, grpcserver_handled_total,
 * grpcserver_msg_received_total, grpcserver_msg_sent_total and the grpcserver_handling_seconds histogram.
 */
export function grpcMetricsInterceptor(registry: Registry, latencyBucketsMs: number[]): grpc.ServerInterceptor {
  const labelNames = ['grpc_type', 'grpc_service', 'grpc_method'] as const;
  const started = new Counter({ name: 'grpcserver_started_total', help: 'Total number of RPCs started on the server.', labelNames, registers: [registry] });
  const handled = new Counter({
    name: 'grpcserver_handled_total', help: 'Total number of RPCs completed on the server, regardless of success or failure.',
    labelNames: [...labelNames, 'grpc_code'], registers: [registry],
  });
  const received = new Counter({ name: 'grpcserver_msg_received_total', help: 'Total number of RPC stream messages received on the server.', labelNames, registers: [registry] });
  const sent = new Counter({ name: 'grpcserver_msg_sent_total', help: 'Total number of gRPC stream messages sent by the server.', labelNames, registers: [registry] });
  const handling = new Histogram({
    name: 'grpcserver_handling_seconds', help: 'Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.',
    labelNames, buckets: latencyBucketsMs.map((ms) => ms / 1000), registers: [registry],
  });

  return (def, call) => {
    const [grpc_service, grpc_method] = splitMethodPath(def.path);
    const labels = { grpc_type: callType(def), grpc_service, grpc_method };
    const startedAt = process.hrtime.bigint();
    let done = false;
    const finish = (code: number): void => {
      if (done) return;
      done = true;
      handled.inc({ ...labels, grpc_code: grpcCodeName(code) });
      handling.observe(labels, Number(process.hrtime.bigint() - startedAt) / 1e9);
    };
    started.inc(labels);
    return new grpc.ServerInterceptingCall(call, {
      start: (next) => next({
        onReceiveMessage: (message, nextMessage) => { received.inc(labels); nextMessage(message); },
        onCancel: () => finish(grpc.status.CANCELLED),
      }),
      sendMessage: (message, next) => { sent.inc(labels); next(message); },
      sendStatus: (status, next) => { finish(status.code); next(status); },
    });
  };
}
