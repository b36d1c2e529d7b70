import type * as grpc from '@grpc/grpc-js';

// Fixture of the private-member check (private-grpc.test.ts): each function reaches into grpc-js
// the way that test must catch. Never called.

/** A grpc-js object cast to a structural type. */
export function castToStructure(server: grpc.Server): unknown {
  return (server as unknown as { http2Servers?: unknown }).http2Servers;
}

/** A private member read by bracket access (the compiler allows it). */
export function bracketAccess(server: grpc.Server): unknown {
  return server['sessions'];
}

function widened(value: object): boolean {
  return 'http2Servers' in value;
}

/** A grpc-js object handed on as `object`, to be taken apart where its type is lost. */
export function passedAsObject(server: grpc.Server): boolean {
  return widened(server);
}
