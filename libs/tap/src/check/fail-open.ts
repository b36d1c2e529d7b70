import { GrpcCode } from './grpc-call.js';

/** Why a check did not produce an answer from the agent. */
export type FailOpenReason = 'unavailable' | 'deadline' | 'error';

/** Classifies a failed CheckHTTP call (anything with a gRPC `code`) for the fail-open metric. */
export function failOpenReason(err: unknown): FailOpenReason {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === GrpcCode.UNAVAILABLE) return 'unavailable';
  if (code === GrpcCode.DEADLINE_EXCEEDED) return 'deadline';
  return 'error';
}
