// Pieces of the blueprints' values schemas. Every object refuses fields it does not know, so a
// misspelt key is an error naming it rather than a default silently used.
import type { JsonSchema } from './blueprint.js';

/** A duration such as 500ms, 1s, 1m30s. */
const DURATION_PATTERN = '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$';
/** A policy name: a DNS-1123 subdomain, what Kubernetes takes as a resource name. */
const POLICY_NAME_PATTERN = '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$';

/** What each pattern of the schemas asks for, in words (for the messages of bad values). */
export const PATTERN_RULES: Readonly<Record<string, string>> = {
  [DURATION_PATTERN]: 'a duration such as 500ms, 10s or 1m30s',
  [POLICY_NAME_PATTERN]: 'lower-case letters, digits, - or ., starting and ending with a letter or digit (a DNS-1123 subdomain)',
  '^[^/]+$': 'a name without /',
};

export const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
export const num = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'number', description, ...extra });
export const bool = (description: string, dflt: boolean): JsonSchema => ({ type: 'boolean', description, default: dflt });
export const duration = (description: string, dflt?: string): JsonSchema =>
  ({ type: 'string', description, pattern: DURATION_PATTERN, ...(dflt !== undefined ? { default: dflt } : {}) });

/** An object of these properties (`required` ones must be given), nothing else; `default` `{}` when none is required. */
export function obj(description: string, properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    type: 'object', description, properties, additionalProperties: false,
    ...(required.length > 0 ? { required } : { default: {} }),
  };
}

/** The values schema of a blueprint: `blueprint` (its name, optional), `policy_name`, `evaluation_interval` and its own. */
export function valuesSchema(blueprint: string, description: string, properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `${blueprint} values`,
    ...obj(description, {
      blueprint: { type: 'string', const: blueprint, description: `The blueprint these values are for (optional; when given, \`${blueprint}\`).` },
      policy_name: str('The name of the Policy resource (a DNS-1123 subdomain: lower-case letters, digits, - and .); also the name of the file written.', { pattern: POLICY_NAME_PATTERN, maxLength: 253 }),
      evaluation_interval: duration('How often the policy\'s circuit runs.', '1s'),
      ...properties,
    }, ['policy_name', ...required]),
  };
}

export const labelMatcher = (what: string): JsonSchema => ({
  type: 'object',
  description: `${what}: \`match_labels\` (label: value), \`match_expressions\` or \`expression\`, the policy's label filter language.`,
});

export const selectors: JsonSchema = {
  type: 'array',
  description: 'Where the component applies: a flow matches when any selector matches.',
  minItems: 1,
  maxItems: 64,
  default: [{ control_point: 'ingress' }],
  items: obj('A selector.', {
    control_point: str('The control point, e.g. ingress.', { minLength: 1 }),
    agent_group: str('The agent group whose agents enforce it.', { minLength: 1, pattern: '^[^/]+$', default: 'default' }),
    service: str('The service whose flows are selected; any selects every flow.', { minLength: 1, default: 'any' }),
    label_matcher: labelMatcher('Only flows matching this filter'),
  }, ['control_point']),
};

const workloadParameters = (description: string): JsonSchema => obj(description, {
  priority: num('Priority of the workload\'s flows (> 0): a higher one leaves the queue first.', { exclusiveMinimum: 0 }),
  queue_timeout: duration('Longest wait in the queue (0s: never waits).'),
  fairness_key: str('A flow label: flows of equal priority share fairly by its value.'),
  tokens: num('Tokens a flow of the workload costs (e.g. its expected milliseconds of work).', { minimum: 0 }),
});

/** The scheduler's workloads and their priorities. */
export const workloads: JsonSchema = {
  type: 'array',
  description: 'Workloads, tried in order: the first whose label_matcher matches a flow takes it.',
  items: obj('A workload.', {
    name: str('The workload\'s name.', { minLength: 1 }),
    label_matcher: labelMatcher('The flows of the workload'),
    parameters: workloadParameters('Its priority, queue timeout, fairness key and tokens.'),
  }, ['label_matcher']),
};

export interface WorkloadParameters { priority?: number; queue_timeout?: string; fairness_key?: string; tokens?: number }
export interface Workload { name?: string; label_matcher: Record<string, unknown>; parameters: WorkloadParameters }
export interface Selector { control_point: string; agent_group: string; service: string; label_matcher?: Record<string, unknown> }

/** The scheduler part of a load scheduler: selectors, workloads, default workload parameters. */
export const schedulerProperties: Record<string, JsonSchema> = {
  selectors,
  workloads: { ...workloads, default: [] },
  default_workload_parameters: workloadParameters('The parameters of flows no workload takes.'),
};

export interface SchedulerValues {
  selectors: Selector[];
  workloads: Workload[];
  default_workload_parameters: WorkloadParameters;
}

/** The load scheduler's parameters in the policy's shape. */
export function loadSchedulerParameters(v: SchedulerValues): Record<string, unknown> {
  return {
    selectors: v.selectors,
    scheduler: { workloads: v.workloads, default_workload_parameters: v.default_workload_parameters },
  };
}
