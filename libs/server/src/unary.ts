import * as grpc from '@grpc/grpc-js';
import { isSluiceError } from '@sluice/errors';
import { encodeStatusDetails, STATUS_DETAILS_KEY } from './status-details.js';

/**
 * The gRPC status a thrown value travels as: a SluiceError keeps its code, its
 * message and its BadRequest details (in the `grpc-status-details-bin`
 * trailer); anything else is INTERNAL with a generic message.
 */
export function toGrpcStatus(err: unknown): Partial<grpc.StatusObject> {
  if (!isSluiceError(err)) return { code: grpc.status.INTERNAL, details: 'internal error' };
  const packed = encodeStatusDetails(err.grpcCode, err.message, err.details);
  if (packed === undefined) return { code: err.grpcCode, details: err.message };
  const metadata = new grpc.Metadata();
  metadata.set(STATUS_DETAILS_KEY, packed);
  return { code: err.grpcCode, details: err.message, metadata };
}

/**
 * Adapt a promise-returning function into a grpc-js unary handler. A thrown SluiceError
 * becomes the gRPC status (grpcCode, message); anything else INTERNAL with a generic message.
 */
export function unary<Req, Res>(
  fn: (request: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res> | Res,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    let result: Promise<Res>;
    try {
      result = Promise.resolve(fn(call.request, call));
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then(
      (response) => callback(null, response),
      (err: unknown) => callback(toGrpcStatus(err) as grpc.ServiceError, null),
    );
  };
}
