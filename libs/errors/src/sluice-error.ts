import { errorCodeEntry, type ErrorCode } from './codes.js';
import { GrpcCode } from './grpc-code.js';
import { httpStatusFromGrpcCode } from './http-status.js';

export interface SluiceErrorOptions {
  /** gRPC status code; defaults to the catalogue's for the code. */
  grpcCode?: number;
  /** HTTP status when it must differ from the gRPC mapping (413, 415). */
  httpStatus?: number;
  /** Machine-readable extra information, placed in the gateway body's `details`. */
  details?: unknown[];
  cause?: unknown;
}

/**
 * Base class of every error Sluice raises on purpose. `code` is stable and
 * machine-readable (one of the catalogue's, `ErrorCode`), `grpcCode` says how it travels over gRPC,
 * `httpStatus` how it travels over HTTP.
 */
export class SluiceError extends Error {
  readonly code: ErrorCode;
  readonly grpcCode: number;
  readonly httpStatus: number;
  readonly details: unknown[];

  constructor(code: ErrorCode, message: string, options: SluiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SluiceError';
    this.code = code;
    this.grpcCode = options.grpcCode ?? errorCodeEntry(code)?.grpc ?? GrpcCode.INTERNAL;
    this.httpStatus = options.httpStatus ?? httpStatusFromGrpcCode(this.grpcCode);
    this.details = options.details ?? [];
  }
}

export function isSluiceError(err: unknown): err is SluiceError {
  return err instanceof SluiceError;
}
