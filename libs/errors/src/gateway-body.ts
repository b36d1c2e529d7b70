import { GrpcCode } from './grpc-code.js';
import { isSluiceError } from './sluice-error.js';
import { httpStatusFromGrpcCode } from './http-status.js';

/** The error body of the gRPC-gateway convention: `{code, message, details}`. */
export interface GatewayErrorBody {
  code: number;
  message: string;
  details: unknown[];
}

export interface GatewayError {
  status: number;
  body: GatewayErrorBody;
}

/** Anything that carries a gRPC status (a grpc-js ServiceError, for one). */
interface StatusLike { code: number; details?: string; message?: string }

function isStatusLike(err: unknown): err is StatusLike {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number';
}

/**
 * Turn any thrown value into the gateway status and body. Unknown errors
 * become INTERNAL with a generic message, so internals never leak.
 */
export function toGatewayError(err: unknown): GatewayError {
  if (isSluiceError(err)) {
    return { status: err.httpStatus, body: { code: err.grpcCode, message: err.message, details: err.details } };
  }
  if (isStatusLike(err) && err.code >= GrpcCode.OK && err.code <= GrpcCode.UNAUTHENTICATED) {
    const message = err.details ?? err.message ?? '';
    return { status: httpStatusFromGrpcCode(err.code), body: { code: err.code, message, details: [] } };
  }
  return { status: 500, body: { code: GrpcCode.INTERNAL, message: 'internal error', details: [] } };
}
