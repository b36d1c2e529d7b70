import { InvalidArgumentError } from '@sluice/errors';

/** A DNS-1123 label: what Kubernetes allows as a custom resource's name here, and what etcd keys take. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const MAX_POLICY_NAME_LENGTH = 63;

/** The policy name, checked: a DNS-1123 label (lower-case letters, digits, '-', at most 63). */
export function checkPolicyName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || name.length === 0) throw new InvalidArgumentError('policy name is required', field);
  if (name.length > MAX_POLICY_NAME_LENGTH) {
    throw new InvalidArgumentError(`policy name must be at most ${MAX_POLICY_NAME_LENGTH} characters, got ${name.length}`, field);
  }
  if (!DNS1123_LABEL.test(name)) {
    throw new InvalidArgumentError(
      `policy name ${JSON.stringify(name)} must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit`,
      field,
    );
  }
  return name;
}
