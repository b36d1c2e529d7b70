import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';

/** Why a check did not produce an answer from the agent. */
export type FailOpenReason = 'unavailable' | 'deadline' | 'error';

/** Classifies a failed CheckHTTP call for the fail-open metric. */
export function failOpenReason(err: unknown): FailOpenReason {
  const code = (err as Partial<ServiceError> | null)?.code;
  if (code === GrpcStatus.UNAVAILABLE) return 'unavailable';
  if (code === GrpcStatus.DEADLINE_EXCEEDED) return 'deadline';
  return 'error';
}
