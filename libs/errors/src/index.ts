export { ErrorCode, errorCatalogue, errorCodeEntry, type ErrorCodeName, type ErrorCodeEntry } from './codes.js';
export { GrpcCode } from './grpc-code.js';
export { httpStatusFromGrpcCode } from './http-status.js';
export { SluiceError, isSluiceError, type SluiceErrorOptions } from './sluice-error.js';
export {
  InvalidArgumentError,
  NotFoundError,
  UnimplementedError,
  UnavailableError,
  DeadlineExceededError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from './errors.js';
export { toGatewayError, type GatewayError, type GatewayErrorBody } from './gateway-body.js';
