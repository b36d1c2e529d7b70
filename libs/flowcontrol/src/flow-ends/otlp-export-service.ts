import type * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError } from '@sluice/errors';
import { unary } from '@sluice/server';

/** A protobufjs message type, as the OTLP collector services use it. */
export interface OtlpMessageType<T> {
  decode(buf: Uint8Array): T;
  encode(msg: T): { finish(): Uint8Array };
}

/** One OTLP collector service: `<service>/Export`, its request and response types (loaded at the first call). */
export interface OtlpExportService<Req, Res> {
  service: string;
  requestName: string;
  request(): OtlpMessageType<Req>;
  response(): OtlpMessageType<Res>;
}

/** Where a collector service is registered: the agent's server, before it starts. */
export interface OtlpServer {
  addService(def: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void;
}

/**
 * Register an OTLP/gRPC collector service whose one unary method is `Export`.
 * Requests stay bytes until the handler decodes them, so a body that is not
 * an export request is answered INVALID_ARGUMENT instead of failing inside
 * grpc-js; the OTLP root loads at the first export, not at start-up.
 */
export function registerOtlpExportService<Req, Res>(
  server: OtlpServer,
  spec: OtlpExportService<Req, Res>,
  handle: (request: Req) => Res,
): void {
  const definition: grpc.ServiceDefinition = {
    Export: {
      path: `/${spec.service}/Export`,
      requestStream: false,
      responseStream: false,
      originalName: 'export',
      requestSerialize: (b: Buffer) => b,
      requestDeserialize: (b: Buffer) => b,
      responseSerialize: (r: Res) => Buffer.from(spec.response().encode(r).finish()),
      responseDeserialize: (b: Buffer) => spec.response().decode(b),
    },
  };
  const implementation: grpc.UntypedServiceImplementation = {
    Export: unary<Buffer, Res>((body) => {
      let request: Req;
      try {
        request = spec.request().decode(body);
      } catch (err) {
        throw new InvalidArgumentError(`not an OTLP ${spec.requestName}: ${err instanceof Error ? err.message : String(err)}`);
      }
      return handle(request);
    }),
  };
  server.addService(definition, implementation);
}
