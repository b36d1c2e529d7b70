import { InvalidArgumentError, ErrorCode } from '@sluice/errors';

/** One rule a policy breaks. `path` is the JSON path of the field at fault, starting at `spec`. */
export interface PolicyProblem {
  path: string;
  message: string;
}

/**
 * A policy that does not validate or compile. Carries every problem found
 * (not only the first), each naming the JSON path of its field; travels as
 * INVALID_ARGUMENT (HTTP 400) with one field violation per problem.
 */
export class PolicyCompileError extends InvalidArgumentError {
  readonly problems: PolicyProblem[];

  constructor(policyName: string, problems: PolicyProblem[]) {
    const shown = problems.slice(0, 20).map((p) => `${p.path}: ${p.message}`);
    if (problems.length > 20) shown.push(`… and ${problems.length - 20} more`);
    super(`policy ${JSON.stringify(policyName)} is invalid: ${shown.join('; ')}`, problems[0]?.path, ErrorCode.INVALID_POLICY);
    this.name = 'PolicyCompileError';
    this.problems = problems;
    this.details.length = 0;
    this.details.push({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      field_violations: problems.map((p) => ({ field: p.path, description: p.message })),
    });
  }
}
