// What makes a request a gRPC call, and its labels; no imports, so that the tap can load it alone
// (@sluice/flowcontrol/grpc-labels).

/** The labels of a gRPC call (a request whose content type is application/grpc), read from its path `/package.Service/Method`. */
export const GRPC_SERVICE_LABEL = 'grpc.service';
export const GRPC_METHOD_LABEL = 'grpc.method';

const GRPC_CONTENT_TYPE = /^application\/grpc(?:[+;]|$)/i;
const GRPC_PATH = /^\/([^/?#]+)\/([^/?#]+)$/;

/** Whether a content type is gRPC's (`application/grpc`, `application/grpc+proto`, …; not gRPC-Web). */
export function isGrpcContentType(type: string | undefined): boolean {
  return type !== undefined && GRPC_CONTENT_TYPE.test(type.trim());
}

/** The service and method of a gRPC call's path (`/package.Service/Method`), or undefined for another shape. */
export function grpcServiceMethod(path: string): { service: string; method: string } | undefined {
  const m = GRPC_PATH.exec(path);
  return m === null ? undefined : { service: m[1] as string, method: m[2] as string };
}
