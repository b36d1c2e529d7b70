import { GrpcCode } from './grpc-code.js';

/** HTTP status for a gRPC code, as the gRPC-gateway maps it. */
export function httpStatusFromGrpcCode(code: number): number {
  switch (code) {
    case GrpcCode.OK: return 200;
    case GrpcCode.CANCELLED: return 499;
    case GrpcCode.INVALID_ARGUMENT: return 400;
    case GrpcCode.DEADLINE_EXCEEDED: return 504;
    case GrpcCode.NOT_FOUND: return 404;
    case GrpcCode.ALREADY_EXISTS: return 409;
    case GrpcCode.PERMISSION_DENIED: return 403;
    case GrpcCode.UNAUTHENTICATED: return 401;
    case GrpcCode.RESOURCE_EXHAUSTED: return 429;
    case GrpcCode.FAILED_PRECONDITION: return 400;
    case GrpcCode.ABORTED: return 409;
    case GrpcCode.OUT_OF_RANGE: return 400;
    case GrpcCode.UNIMPLEMENTED: return 501;
    case GrpcCode.UNAVAILABLE: return 503;
    default: return 500;
  }
}
