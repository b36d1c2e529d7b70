import protobuf from 'protobufjs';
import { checkProtos } from './check-protos.js';
import { FRAME_PREFIX } from './grpc-frames.js';
import type { CheckHTTPRequest, SocketAddress } from './types.js';

/*
 * What the tap sends, encoded by the protobufjs types of checkhttp.proto
 * (field numbers and types from the .proto file). The request is built in
 * its decoded shape (enums by name, as tests and agents read it); encode
 * wants enum numbers, read here from the .proto's enum.
 */
const PACKAGE = 'sluice.flowcontrol.checkhttp.v1';
const STREAM_REQUEST = checkProtos().lookupType(`${PACKAGE}.CheckHTTPStreamRequest`);
const REQUEST = checkProtos().lookupType(`${PACKAGE}.CheckHTTPRequest`);
const PROTOCOLS: Readonly<Record<string, number>> = checkProtos().lookupEnum(`${PACKAGE}.SocketAddress.Protocol`).values;

function wireAddress(a: SocketAddress): { protocol: number; address: string; port: number } {
  return { protocol: PROTOCOLS[a.protocol] ?? 0, address: a.address, port: a.port };
}

function wireRequest(r: CheckHTTPRequest): object {
  return { ...r, source: wireAddress(r.source), destination: wireAddress(r.destination) };
}

/**
 * `message` encoded by `type` behind gRPC's 5-byte prefix, in one buffer: the
 * writer first takes the flag byte (a varint 0 is the byte 0) and four bytes
 * for the length, filled in once the message's length is known (no copy of the message).
 */
function framed(type: protobuf.Type, message: object): Buffer {
  const writer = protobuf.Writer.create();
  writer.uint32(0).fixed32(0);
  const bytes = type.encode(message, writer).finish();
  const frame = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  frame.writeUInt32BE(frame.length - FRAME_PREFIX, 1);
  return frame;
}

/** A CheckHTTPStreamRequest as one gRPC message (prefix included). */
export function streamRequestFrame(id: number, request: CheckHTTPRequest): Buffer {
  return framed(STREAM_REQUEST, { id, request: wireRequest(request) });
}

/** A CheckHTTPRequest as one gRPC message (prefix included). */
export function requestFrame(request: CheckHTTPRequest): Buffer {
  return framed(REQUEST, wireRequest(request));
}
