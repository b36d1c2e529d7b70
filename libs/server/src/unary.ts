import * as grpc from '@grpc/grpc-js';
import { isSluiceError, GrpcCode } from '@sluice/errors';
import { encodeStatusDetails, STATUS_DETAILS_KEY } from './status-details.js';
import { boundStatus } from './status-bounds.js';

/**
 * The gRPC status a thrown value travels as: a SluiceError keeps its code, its
 * message and its BadRequest details (in the `grpc-status-details-bin`
 * trailer); anything else is INTERNAL with a generic message. Message and
 * details are bounded (status-bounds.ts) so the trailers fit what peers accept.
 */
export function toGrpcStatus(err: unknown): Partial<grpc.StatusObject> {
  if (!isSluiceError(err)) return { code: GrpcCode.INTERNAL, details: 'internal error' };
  const { message, details } = boundStatus(err.message, err.details);
  const packed = encodeStatusDetails(err.grpcCode, message, details);
  if (packed === undefined) return { code: err.grpcCode, details: message };
  const metadata = new grpc.Metadata();
  metadata.set(STATUS_DETAILS_KEY, packed);
  return { code: err.grpcCode, details: message, metadata };
}

function isThenable<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * Adapt a function answering a value or a promise into a grpc-js unary handler. A value is
 * answered at once (no promise and no microtask per call); a promise when it settles. A thrown
 * SluiceError, or one a promise rejects with, becomes the gRPC status (grpcCode, message);
 * anything else INTERNAL with a generic message.
 */
export function unary<Req, Res>(
  fn: (request: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res> | Res,
): grpc.handleUnaryCall<Req, Res> {
  const fail = (callback: grpc.sendUnaryData<Res>, err: unknown): void => callback(toGrpcStatus(err) as grpc.ServiceError, null);
  return (call, callback) => {
    let result: Promise<Res> | Res;
    try {
      result = fn(call.request, call);
    } catch (err) {
      fail(callback, err);
      return;
    }
    if (isThenable(result)) {
      result.then((response) => callback(null, response), (err: unknown) => fail(callback, err));
      return;
    }
    callback(null, result);
  };
}
