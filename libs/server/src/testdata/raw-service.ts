import * as grpc from '@grpc/grpc-js';

/** Test fixture: a gRPC service on raw bytes (no protobuf), to see what a handler sees of its call. */
const bytes = (b: Buffer): Buffer => b;
function method(name: string, requestStream: boolean, responseStream: boolean): grpc.MethodDefinition<Buffer, Buffer> {
  return { path: `/sluice.test.Raw/${name}`, requestStream, responseStream, requestSerialize: bytes, requestDeserialize: bytes, responseSerialize: bytes, responseDeserialize: bytes, originalName: name };
}

export const RAW_SERVICE: grpc.ServiceDefinition = {
  /** Answers JSON {peer, connection, meta}: the call's peer, connection info and metadata. */
  Peer: method('Peer', false, false),
  /** Never answers; its call's cancellation is reported. */
  Hang: method('Hang', false, false),
  /** Echoes every message back; at the client's half-close ends with trailer x-count. */
  Chat: method('Chat', true, true),
};

export const RawClient = grpc.makeGenericClientConstructor(RAW_SERVICE, 'Raw');

export interface RawSeen { cancelled: Promise<void> }

export function rawImpl(): { impl: grpc.UntypedServiceImplementation; seen: RawSeen } {
  let onCancel: () => void = () => undefined;
  const seen: RawSeen = { cancelled: new Promise<void>((resolve) => { onCancel = resolve; }) };
  const impl: grpc.UntypedServiceImplementation = {
    Peer: ((call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
      cb(null, Buffer.from(JSON.stringify({ peer: call.getPeer(), meta: call.metadata.getMap() })));
    }) as grpc.handleUnaryCall<Buffer, Buffer>,
    Hang: ((call: grpc.ServerUnaryCall<Buffer, Buffer>) => {
      call.once('cancelled', () => onCancel());
    }) as grpc.handleUnaryCall<Buffer, Buffer>,
    Chat: ((call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
      let count = 0;
      call.on('data', (m: Buffer) => { count++; call.write(m); });
      call.on('end', () => {
        const trailer = new grpc.Metadata();
        trailer.set('x-count', String(count));
        call.end(trailer);
      });
    }) as grpc.handleBidiStreamingCall<Buffer, Buffer>,
  };
  return { impl, seen };
}

/** A gRPC message frame (uncompressed) of `payload`. */
export function grpcFrame(payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}
