import * as grpc from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import type { Registry } from 'prom-client';
import type { GRPCServerConfig } from './config.js';
import { GrpcMetrics, splitMethodPath } from './grpc-metrics.js';
import { GrpcCode } from '@sluice/errors';

/** How long HTTP/2 sessions may stay open at shutdown once no call is in flight. */
export const SESSION_GRACE_MS = 500;

/** A registered service: its name and definition (for the gateway's serializers and reflection). */
export interface RegisteredService {
  name: string;
  definition: grpc.ServiceDefinition;
}

/**
 * The grpc-js server behind the shared listener. It never binds a port: connections
 * come in through a connection injector (insecure credentials, TLS is terminated upstream).
 */
export class GrpcServer {
  readonly server: grpc.Server;
  readonly services = new Map<string, RegisteredService>();
  private injector: grpc.ConnectionInjector | undefined;
  private readonly metrics: GrpcMetrics;
  /** Client-streaming and bidi calls open now, ended at the start of shutdown. */
  private readonly streams = new Set<grpc.ServerReadableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>>();
  private draining = false;

  constructor(private readonly config: GRPCServerConfig, registry: Registry, auth?: grpc.ServerInterceptor) {
    this.metrics = new GrpcMetrics(registry, config.latency_buckets_ms);
    // Channelz off: nothing here serves it, and with it on grpc-js tracks every call (a tracker of
    // four closures per call, timestamps per message) and every connection.
    const interceptors = auth === undefined ? [this.metrics.interceptor()] : [auth, this.metrics.interceptor()];
    this.server = new grpc.Server({ interceptors, 'grpc.enable_channelz': 0 });
  }

  addService(definition: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void {
    const first = Object.values(definition)[0];
    if (first === undefined) throw new TypeError('addService: the service definition has no methods');
    const name = splitMethodPath(first.path)[0];
    const measured: grpc.UntypedServiceImplementation = { ...impl };
    const served: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
    for (const [key, def] of Object.entries(definition)) {
      const own = Object.prototype.hasOwnProperty.call(impl, key) ? key : def.originalName;
      const handler = own === undefined ? undefined : impl[own];
      const unaryCall = !def.requestStream && !def.responseStream;
      served[key] = unaryCall ? { ...def, requestDeserialize: undecodableAsValue(def.requestDeserialize) } : def;
      if (own !== undefined && typeof handler === 'function' && unaryCall) {
        measured[own] = this.metrics.wrapUnary(def, refuseUndecodable(handler as grpc.handleUnaryCall<unknown, unknown>));
      } else if (own !== undefined && typeof handler === 'function' && def.requestStream) {
        measured[own] = this.trackStreams(handler as (call: grpc.ServerReadableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>) => void);
      }
    }
    this.server.addService(served as grpc.ServiceDefinition, measured);
    this.services.set(name, { name, definition });
  }

  /** Keep the calls of a client-streaming or bidi handler in `streams` while they are open. */
  private trackStreams(
    handler: (call: grpc.ServerReadableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>) => void,
  ): (call: grpc.ServerReadableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>) => void {
    return (call) => {
      const forget = (): void => { this.streams.delete(call); };
      this.streams.add(call);
      call.once('cancelled', forget);
      call.once('error', forget);
      call.once('finish', forget);
      call.once('close', forget);
      handler(call);
      if (this.draining) endRequestStream(call);
    };
  }

  /**
   * Start of shutdown: every open client-streaming or bidi call is told that its client is done
   * sending (its 'end' event), as if the client had half-closed. A handler that ends its call on
   * 'end' once its in-flight work is answered (CheckHTTPStream does) closes the stream with OK at
   * once when idle, so a connected but idle client (a tap) holds the shutdown up no longer than its
   * in-flight calls. Messages still arriving are ignored by such a handler's ended call.
   */
  endStreams(): void {
    this.draining = true;
    for (const call of [...this.streams]) endRequestStream(call);
  }

  /** Freeze registration: add reflection (when enabled) and open the connection injector. */
  open(): grpc.ConnectionInjector {
    if (this.injector !== undefined) return this.injector;
    if (this.config.enable_reflection) this.addReflection();
    this.injector = this.server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
    return this.injector;
  }

  /**
   * Server reflection over every registered service whose definition carries proto-loader
   * file descriptors (each method's requestType.fileDescriptorProtos).
   */
  private addReflection(): void {
    const root: Record<string, { fileDescriptorProtos: Buffer[] }> = {};
    for (const { definition } of this.services.values()) {
      for (const [method, def] of Object.entries(definition)) {
        const protos = (def as { requestType?: { fileDescriptorProtos?: unknown } }).requestType?.fileDescriptorProtos;
        if (Array.isArray(protos)) root[`${def.path}#${method}`] = { fileDescriptorProtos: protos as Buffer[] };
      }
    }
    const reflection = new ReflectionService(root as unknown as PackageDefinition, { services: [...this.services.keys()] });
    reflection.addToServer(this.server);
  }

  /**
   * Stop: open request streams are ended (endStreams), every HTTP/2 session gets GOAWAY (idle ones
   * close at once), in-flight calls finish, or are cancelled at the deadline. A session can outlive
   * its calls: a client that never half-closes a stream the server already answered (a message
   * refused for its size, say) keeps it open. So once no call is in flight, sessions still open get
   * SESSION_GRACE_MS to close by themselves and are then destroyed.
   */
  shutdown(deadlineMs: number): Promise<void> {
    this.endStreams();
    return new Promise((resolve) => {
      let idleSince: number | undefined;
      const stop = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        this.server.forceShutdown();
        resolve();
      };
      const timer = setTimeout(stop, deadlineMs);
      const poll = setInterval(() => {
        if (this.metrics.inFlight > 0 || this.streams.size > 0) idleSince = undefined;
        else if (idleSince === undefined) idleSince = Date.now();
        else if (Date.now() - idleSince >= SESSION_GRACE_MS) stop();
      }, 25);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      });
    });
  }
}

/** The client's half-close as the handler sees it, unless its real 'end' came already. */
function endRequestStream(call: grpc.ServerReadableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>): void {
  if (call.readableEnded || call.destroyed) return;
  call.emit('end');
}

/** A request the protobuf decoder refused (too deeply nested, malformed), kept to be answered INVALID_ARGUMENT. */
class Undecodable {
  constructor(readonly reason: string) {}
}

/**
 * grpc-js answers INTERNAL when a request cannot be decoded; the caller sent bad input, so the
 * decoding error is kept as a value and refuseUndecodable answers it INVALID_ARGUMENT instead.
 */
function undecodableAsValue(deserialize: grpc.deserialize<unknown>): grpc.deserialize<unknown> {
  return (bytes) => {
    try {
      return deserialize(bytes);
    } catch (err) {
      return new Undecodable(err instanceof Error ? err.message : String(err));
    }
  };
}

function refuseUndecodable(handler: grpc.handleUnaryCall<unknown, unknown>): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const request: unknown = call.request;
    if (request instanceof Undecodable) {
      callback({ code: GrpcCode.INVALID_ARGUMENT, details: `the request could not be decoded: ${request.reason}` } as grpc.ServiceError, null);
      return;
    }
    handler(call, callback);
  };
}
