import { InvalidArgumentError } from '@sluice/errors';

/** A checked what-if request. */
export interface WhatIfRequest {
  name: string;
  spec: Record<string, unknown>;
  controlPoint: string;
  samples: number;
  agentGroup?: string;
  service?: string;
  labelKey?: string;
  waitMs: number;
}

export const WHATIF_DEFAULT_SAMPLES = 100;
export const WHATIF_MAX_SAMPLES = 1000;
export const WHATIF_DEFAULT_WAIT_MS = 20_000;
/** The agents' preview waits at most this long. */
export const WHATIF_MAX_WAIT_MS = 30_000;
const FIELDS = ['policy', 'name', 'control_point', 'samples', 'agent_group', 'service', 'label_key', 'wait_ms'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optionalString(b: Record<string, unknown>, key: string): string | undefined {
  const v = b[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '' || v.length > 512) throw new InvalidArgumentError(`${key} must be a string of 1 to 512 characters`, key);
  return v;
}

function wholeNumber(b: Record<string, unknown>, key: string, min: number, max: number, dflt: number): number {
  const v = b[key];
  if (v === undefined) return dflt;
  const n = typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(`${key} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`, key);
  }
  return n;
}

/**
 * `{policy, control_point, samples?, agent_group?, service?, label_key?, wait_ms?, name?}`: `policy`
 * is a policy spec (as the policy API takes it) or a Policy resource (`kind: Policy`, its
 * `metadata.name` naming it); the name defaults to `what-if`.
 */
export function parseWhatIfRequest(body: unknown): WhatIfRequest {
  if (!isObject(body)) throw new InvalidArgumentError('request body must be a JSON object: {"policy": <spec or Policy resource>, "control_point": ...}', 'body');
  const extra = Object.keys(body).find((k) => !FIELDS.includes(k));
  if (extra !== undefined) throw new InvalidArgumentError(`unknown field ${JSON.stringify(extra)}; the request holds ${FIELDS.join(', ')}`, extra);
  const policy = body.policy;
  if (!isObject(policy)) throw new InvalidArgumentError('policy must be a JSON object: a policy spec or a Policy resource', 'policy');
  let spec = policy;
  let name = optionalString(body, 'name');
  if (policy.kind !== undefined) {
    if (policy.kind !== 'Policy') throw new InvalidArgumentError(`policy.kind ${JSON.stringify(policy.kind)} is not Policy`, 'policy.kind');
    if (!isObject(policy.spec)) throw new InvalidArgumentError('a Policy resource needs a spec object', 'policy.spec');
    spec = policy.spec;
    const meta = isObject(policy.metadata) ? policy.metadata.name : undefined;
    if (name === undefined && typeof meta === 'string' && meta !== '') name = meta;
  }
  const controlPoint = body.control_point;
  if (typeof controlPoint !== 'string' || controlPoint === '' || controlPoint.length > 512) {
    throw new InvalidArgumentError('control_point is required: the control point whose live flows the policy is tried on', 'control_point');
  }
  const agentGroup = optionalString(body, 'agent_group');
  const service = optionalString(body, 'service');
  const labelKey = optionalString(body, 'label_key');
  return {
    name: name ?? 'what-if',
    spec,
    controlPoint,
    samples: wholeNumber(body, 'samples', 1, WHATIF_MAX_SAMPLES, WHATIF_DEFAULT_SAMPLES),
    waitMs: wholeNumber(body, 'wait_ms', 1, WHATIF_MAX_WAIT_MS, WHATIF_DEFAULT_WAIT_MS),
    ...(agentGroup !== undefined ? { agentGroup } : {}),
    ...(service !== undefined ? { service } : {}),
    ...(labelKey !== undefined ? { labelKey } : {}),
  };
}
