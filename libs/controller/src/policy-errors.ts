import { GrpcCode, InvalidArgumentError, SluiceError, ErrorCode } from '@sluice/errors';
import type { PolicyProblem } from './policy-language.js';

const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';
/** At most this many problems are listed in one answer. */
const MAX_LISTED_PROBLEMS = 20;

/** A policy that does not validate or compile: INVALID_ARGUMENT (400), every field at fault listed. */
export class PolicyRejectedError extends SluiceError {
  readonly problems: PolicyProblem[];
  constructor(name: string, problems: PolicyProblem[]) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    const first = listed[0];
    const summary = first === undefined ? 'invalid policy' : `${first.path}: ${first.message}`;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    super(ErrorCode.INVALID_POLICY, `policy ${JSON.stringify(name)} is invalid: ${summary}${more}`, {
      grpcCode: GrpcCode.INVALID_ARGUMENT,
      details: [{ '@type': BAD_REQUEST, field_violations: listed.map((p) => ({ field: p.path, description: p.message })) }],
    });
    this.name = 'PolicyRejectedError';
    this.problems = problems;
  }
}

function isProblemList(v: unknown): v is PolicyProblem[] {
  return Array.isArray(v) && v.every((p) => typeof p === 'object' && p !== null
    && typeof (p as PolicyProblem).path === 'string' && typeof (p as PolicyProblem).message === 'string');
}

/**
 * What a compile failure becomes: the compiler's problems (PolicyCompileError.problems), an
 * InvalidArgumentError's field, or, for anything else (a bug in the compiler), one problem at
 * `spec` so a bad policy is still a 400 and never takes the process down.
 */
export function rejectionOf(name: string, err: unknown): PolicyRejectedError {
  if (err instanceof PolicyRejectedError) return err;
  const problems = (err as { problems?: unknown } | null)?.problems;
  if (isProblemList(problems) && problems.length > 0) return new PolicyRejectedError(name, problems);
  if (err instanceof InvalidArgumentError) return new PolicyRejectedError(name, [{ path: err.field ?? 'spec', message: err.message }]);
  const message = err instanceof Error ? err.message : String(err);
  return new PolicyRejectedError(name, [{ path: 'spec', message: `policy could not be compiled: ${message}` }]);
}
