import { InvalidArgumentError } from '@sluice/errors';
import { POLICY_NAME_MAX_LENGTH, policyNameProblem } from '@sluice/policies';

/** The longest policy name (a DNS-1123 subdomain, as a Policy resource's name). */
export const MAX_POLICY_NAME_LENGTH = POLICY_NAME_MAX_LENGTH;

/** The policy name, checked with the one rule of every path in (policyNameProblem). */
export function checkPolicyName(name: unknown, field = 'name'): string {
  const problem = policyNameProblem(name);
  if (problem !== undefined) throw new InvalidArgumentError(problem, field);
  return name as string;
}

/** Whether `name` is a policy name (for names read back from etcd or handed over by the CR watcher). */
export function isPolicyName(name: string): boolean {
  return policyNameProblem(name) === undefined;
}
