/**
 * Limits on a policy's name and spec, the same on every path in (the policy API over HTTP and gRPC,
 * Policy resources, policies read back from etcd) and in docs/policies.md (generated from these).
 */

/** A policy name is a DNS-1123 subdomain, what Kubernetes allows as a Policy resource's name. */
export const POLICY_NAME_MAX_LENGTH = 253;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
export const POLICY_NAME_RULE = `1..${POLICY_NAME_MAX_LENGTH} lower-case letters, digits, '-' or '.', starting and ending with a letter or digit (a DNS-1123 subdomain)`;

/**
 * How deep a spec may nest (objects and lists): deep enough for any policy (the deepest real
 * ones are about 10 levels), and well within what the protobuf decoder of the gRPC API reads.
 */
export const POLICY_SPEC_MAX_DEPTH = 32;

/** Why `name` is not a policy name, or undefined when it is one. */
export function policyNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'policy name is required';
  if (name.length > POLICY_NAME_MAX_LENGTH) return `policy name must be at most ${POLICY_NAME_MAX_LENGTH} characters, got ${name.length}`;
  if (!DNS1123_SUBDOMAIN.test(name)) return `policy name ${JSON.stringify(name)} must be ${POLICY_NAME_RULE}`;
  return undefined;
}
