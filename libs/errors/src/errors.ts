import { ErrorCode } from './codes.js';
import { GrpcCode } from './grpc-code.js';
import { SluiceError } from './sluice-error.js';

/** A request or value that breaks a rule. `field` is the JSON path or key path at fault. */
export class InvalidArgumentError extends SluiceError {
  readonly field: string | undefined;
  constructor(message: string, field?: string, code: ErrorCode = ErrorCode.INVALID_ARGUMENT) {
    super(code, message, {
      grpcCode: GrpcCode.INVALID_ARGUMENT,
      details: field === undefined ? [] : [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', field_violations: [{ field, description: message }] }],
    });
    this.name = 'InvalidArgumentError';
    this.field = field;
  }
}

export class NotFoundError extends SluiceError {
  constructor(message: string, code: ErrorCode = ErrorCode.NOT_FOUND) {
    super(code, message, { grpcCode: GrpcCode.NOT_FOUND });
    this.name = 'NotFoundError';
  }
}

export class UnimplementedError extends SluiceError {
  constructor(message: string, code: ErrorCode = ErrorCode.UNIMPLEMENTED) {
    super(code, message, { grpcCode: GrpcCode.UNIMPLEMENTED });
    this.name = 'UnimplementedError';
  }
}

export class UnavailableError extends SluiceError {
  constructor(message: string, code: ErrorCode = ErrorCode.UNAVAILABLE, cause?: unknown) {
    super(code, message, { grpcCode: GrpcCode.UNAVAILABLE, cause });
    this.name = 'UnavailableError';
  }
}

export class DeadlineExceededError extends SluiceError {
  constructor(message: string, code: ErrorCode = ErrorCode.DEADLINE_EXCEEDED) {
    super(code, message, { grpcCode: GrpcCode.DEADLINE_EXCEEDED });
    this.name = 'DeadlineExceededError';
  }
}

/** A body larger than the route accepts (HTTP 413). */
export class PayloadTooLargeError extends SluiceError {
  constructor(message: string, code: ErrorCode = ErrorCode.PAYLOAD_TOO_LARGE) {
    super(code, message, { grpcCode: GrpcCode.RESOURCE_EXHAUSTED, httpStatus: 413 });
    this.name = 'PayloadTooLargeError';
  }
}

/** A body in a content type the route does not speak (HTTP 415). */
export class UnsupportedMediaTypeError extends SluiceError {
  constructor(message: string, code: ErrorCode = ErrorCode.UNSUPPORTED_MEDIA_TYPE) {
    super(code, message, { grpcCode: GrpcCode.INVALID_ARGUMENT, httpStatus: 415 });
    this.name = 'UnsupportedMediaTypeError';
  }
}
