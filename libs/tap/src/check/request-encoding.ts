import { checkProtos } from './check-protos.js';
import { frameOf } from './grpc-frames.js';
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

/** A CheckHTTPStreamRequest as one gRPC message (prefix included). */
export function streamRequestFrame(id: number, request: CheckHTTPRequest): Buffer {
  return frameOf(STREAM_REQUEST.encode({ id, request: wireRequest(request) }).finish());
}

/** A CheckHTTPRequest as one gRPC message (prefix included). */
export function requestFrame(request: CheckHTTPRequest): Buffer {
  return frameOf(REQUEST.encode(wireRequest(request)).finish());
}
