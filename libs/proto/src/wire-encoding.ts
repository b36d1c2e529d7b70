import type * as grpc from '@grpc/grpc-js';
import { preEncodedVariant } from './pre-encoded.js';
import { messageType, reflectionRoot } from './reflection.js';

export interface WireSerializerOptions {
  /** Full names of message types held as their encodings (Uint8Array) wherever they occur in the message. */
  preEncoded?: readonly string[];
}

/**
 * The numbers of an enum's value names, read from its .proto (so a message built for a
 * wire serializer names its enum values without writing their numbers a second time). `N` and
 * `V` type the names and numbers, e.g. `enumNumbers<StatusCode__Output, Extract<StatusCode, number>>`.
 */
export function enumNumbers<N extends string, V extends number = number>(fullName: string): Readonly<Record<N, V>> {
  const values = reflectionRoot().lookupEnum(fullName).values;
  return Object.freeze({ ...values }) as Readonly<Record<N, V>>;
}

/**
 * A serializer of a message already in wire shape: protobufjs's Type.encode of the message
 * type loaded from the same .proto, without the `fromObject` conversion of the loader's
 * serializer (a copy of the whole message into protobufjs message objects). The message must
 * hold enums as numbers (enumNumbers), 64-bit integers as numbers, maps as plain objects and
 * sub-messages as plain objects; a field left undefined or null is not written (proto3: a
 * scalar at its default reads back the same). The loader's deserializer reads the bytes.
 * `opts.preEncoded` names message types whose values the message holds already encoded
 * (preEncodedVariant): a sender that keeps the bytes of a sub-message that repeats, or
 * encodes one answer inside another, splices them instead of encoding them again.
 */
export function wireSerializer<T extends object>(fullName: string, opts: WireSerializerOptions = {}): (message: T) => Buffer {
  const pre = new Set(opts.preEncoded ?? []);
  for (const name of pre) messageType(name); // throws for a name that is not a message type of the Sluice protos
  const type = (pre.size === 0 ? undefined : preEncodedVariant(fullName, pre)) ?? messageType(fullName);
  return (message) => {
    const bytes = type.encode(message).finish();
    // Node's protobufjs writer answers a Buffer already.
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

/**
 * A copy of a service definition whose named methods answer through the given serializers
 * (request handling, paths and the file descriptors reflection reads stay the loader's).
 * Throws for a method the service does not have.
 */
export function withResponseSerializers(
  definition: grpc.ServiceDefinition,
  serializers: Readonly<Record<string, (message: never) => Buffer>>,
): grpc.ServiceDefinition {
  const copy: Record<string, grpc.MethodDefinition<unknown, unknown>> = { ...definition };
  for (const [method, serialize] of Object.entries(serializers)) {
    const def = definition[method];
    if (def === undefined) throw new TypeError(`withResponseSerializers: the service has no method ${method}`);
    copy[method] = { ...def, responseSerialize: serialize as (value: unknown) => Buffer };
  }
  return copy;
}
