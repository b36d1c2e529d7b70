import { CIRCUIT_PARTS_DOC } from './circuit-docs.js';
import { UNSUPPORTED_COMPONENTS } from '../components/index.js';
import { PolicySpecSchema } from '../schema/policy.js';
import { PolicyStatusSchema } from '../schema/status.js';
import { MIN_EVALUATION_INTERVAL } from '../schema/fields.js';
import { POLICY_NAME_RULE, POLICY_SPEC_MAX_DEPTH } from '../limits.js';

/** Members marked unsupported outside the circuit (classifier parts). */
const UNSUPPORTED_RESOURCES = ['rego classifiers'];
const UNSUPPORTED = [...UNSUPPORTED_COMPONENTS.map((p) => `\`${p.join('.')}\``), ...UNSUPPORTED_RESOURCES].join(', ');

interface Node {
  type?: string;
  title?: string;
  description?: string;
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  additionalProperties?: Node | boolean;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  pattern?: string;
  format?: string;
  propertyNames?: { pattern?: string };
  'x-sluice-type'?: string;
  'x-sluice-unsupported'?: boolean;
  'x-sluice-ignored'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function isMap(n: Node): boolean {
  return n.type === 'object' && typeof n.additionalProperties === 'object';
}

function typeOf(n: Node): string {
  if (n['x-sluice-unsupported'] === true) return 'not supported';
  if (n['x-sluice-ignored'] === true) return 'ignored';
  if (n.title !== undefined) return `[${n.title}](#${n.title.toLowerCase()})`;
  if (n['x-kubernetes-preserve-unknown-fields'] === true) return 'object (free-form)';
  if (n['x-sluice-type'] === 'duration') return 'duration';
  if (n.enum !== undefined) return `string: ${n.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  if (n.type === 'array' && n.items !== undefined) return `list of ${typeOf(n.items)}`;
  if (isMap(n)) return `map of ${typeOf(n.additionalProperties as Node)}`;
  if (n.type === 'number') return 'number or decimal string';
  if (n.type === 'integer') return 'integer or decimal string';
  return n.type ?? 'any';
}

function boundsOf(n: Node): string {
  const b: string[] = [];
  if (n.minimum !== undefined) b.push(`≥ ${n.minimum}`);
  if (n.exclusiveMinimum !== undefined) b.push(`> ${n.exclusiveMinimum}`);
  if (n.maximum !== undefined) b.push(`≤ ${n.maximum}`);
  if (n.format === 'positive_duration') b.push('> 0');
  if (n.format === 'nonnegative_duration') b.push('≥ 0');
  if (n.format === 'evaluation_interval') b.push(`≥ ${MIN_EVALUATION_INTERVAL}`);
  if (n.minLength !== undefined && n.minLength > 0) b.push('non-empty');
  if (n.pattern !== undefined) b.push(`matches \`${n.pattern}\``);
  if (n.minItems !== undefined) b.push(`at least ${n.minItems} item${n.minItems === 1 ? '' : 's'}`);
  if (n.maxItems !== undefined) b.push(`at most ${n.maxItems} items`);
  if (n.propertyNames?.pattern !== undefined) b.push(`keys match \`${n.propertyNames.pattern}\``);
  return b.join(', ');
}

/** The object a field leads to, whose own section documents it (not for shared or free-form types). */
function objectBelow(n: Node): Node | undefined {
  if (n.title !== undefined || n['x-kubernetes-preserve-unknown-fields'] === true) return undefined;
  if (n.type === 'object' && n.properties !== undefined) return n;
  if (n.type === 'array' && n.items !== undefined) return objectBelow(n.items);
  if (isMap(n)) return objectBelow(n.additionalProperties as Node);
  return undefined;
}

function suffixOf(n: Node): string {
  if (n.type === 'array') return '[]';
  if (isMap(n)) return '.<name>';
  return '';
}

function section(path: string, n: Node, out: string[], queue: [string, Node][]): void {
  out.push(`### ${path}`, '', n.description ?? '', '');
  if (n.minProperties === 1 && n.maxProperties === 1) out.push('Exactly one member is set.', '');
  else if (n.maxProperties === 1) out.push('At most one member is set.', '');
  out.push('| Field | Type | Required | Default | Bounds | Meaning |', '|---|---|---|---|---|---|');
  for (const [name, child] of Object.entries(n.properties ?? {})) {
    const required = (n.required ?? []).includes(name) ? 'yes' : 'no';
    const def = child.default === undefined ? '' : `\`${JSON.stringify(child.default)}\``;
    out.push(`| \`${name}\` | ${cell(typeOf(child))} | ${required} | ${cell(def)} | ${cell(boundsOf(child))} | ${cell(child.description ?? '')} |`);
    const below = objectBelow(child);
    if (below !== undefined) queue.push([`${path}.${name}${suffixOf(child)}`, below]);
  }
  out.push('');
}

function collectShared(n: Node, found: Map<string, Node>): void {
  if (n.title !== undefined && !found.has(n.title)) found.set(n.title, n);
  for (const child of Object.values(n.properties ?? {})) collectShared(child, found);
  if (n.items !== undefined) collectShared(n.items, found);
  if (typeof n.additionalProperties === 'object') collectShared(n.additionalProperties, found);
}

const intro = () => `# Policies

<!-- Generated from the policy schema in libs/policies; do not edit. Regenerate with
     node libs/policies/dist/generate/write-generated.js (a test fails when this file is stale). -->

A policy is what a \`Policy\` resource (\`apiVersion: sluice.dev/v1alpha1\`, \`crds/policies.sluice.dev.yaml\`)
holds in its \`spec\`, and what \`POST /v1/policies/{name}\` takes as \`{"policy": <spec>}\`. It follows
the shape of Aperture 2.8's policy language, so Aperture policies that use the components below work
unchanged. Examples: [deploy/examples/](../deploy/examples/).
On Kubernetes the API server checks a resource against the CRD's schema first; it drops fields the
CRD does not define (kubectl warns about them), so the controller's compile never sees them, while
the API refuses them with a 400.

## How a policy works

- **Circuit.** \`spec.circuit.components\` is a list of components connected by named signals: an
  out-port writes a signal (\`{signal_name}\`), an in-port reads one (\`{signal_name}\`) or holds a
  constant (\`{constant_signal: {value}}\`, or \`{constant_signal: {special_value: NaN | +Inf | -Inf}}\`).
  The controller runs the circuit every \`evaluation_interval\` (default 10s); the first run is at once
  when the policy is applied. Each run evaluates every component once, in an order where every
  signal is written before it is read (ties keep the list's order; loops: see below).
- **Signals** are numbers or *invalid*. NaN is invalid; a PromQL query that fails, times out, or
  answers anything but one finite number (a scalar or a one-element vector) is invalid. Invalid propagates as in
  Aperture: \`arithmetic_combinator\` (and a division by zero), \`min\` and \`max\` are invalid when any
  input is; \`first_valid\` picks the first valid input; \`decider\` answers 0 when an input is invalid;
  \`switcher\` takes \`off_signal\` when \`switch\` is invalid or 0. So "capacity = 2 × a PromQL result, or
  10 when it is missing" is \`first_valid([2 × promql, 10])\`, or a switcher whose switch is
  \`decider(2 × promql > -Inf)\` ([deploy/examples/promql-rate-limit.yaml](../deploy/examples/promql-rate-limit.yaml)).
- **Decisions.** Each flow-control component (\`rate_limiter\`, \`sampler\`) turns its in-ports into a
  decision that the controller publishes to the agents of its selectors' agent groups. An in-port
  whose signal is invalid, or out of its range (a negative capacity or fill, an accept percentage
  outside 0..100), keeps the last good value; a component that never had a good value has no
  decision, and its agents run it in pass-through (every flow accepted). \`pass_through\` is true when
  its signal is valid and non-zero, and keeps its last value while invalid (false at first).
- **Component ids** are \`root.<index>\` (the index in \`components\`); classifiers are
  \`classifier.<index>\` and flux meters \`flux_meter.<name>\`, with \`%\` and \`/\` of the name written
  \`%25\` and \`%2F\` (ids are parts of etcd keys; a flux meter named \`load-ramping/average_latency/0\`
  is \`flux_meter.load-ramping%2Faverage_latency%2F0\`, and its metrics carry the name as written).
  PromQL results are fed to the circuit by the PromQL component's id.
- **Load ramps.** A \`flow_control.load_ramp\` is enforced as a \`sampler\` (its decision each tick is
  the ramp's accept percentage). Started, paused and reset through \`bool_variable\`s whose
  \`config_key\` the dynamic configuration sets (\`start\`, \`reset\` in Aperture's load-ramping
  policies): see [deploy/examples/load-ramp.yaml](../deploy/examples/load-ramp.yaml).
- **Variables.** A \`variable\` (or \`bool_variable\`) holds \`constant_output\` until a value is set through its
  \`config_key\` in the dynamic configuration or through
  \`POST /v1/policies/{name}/variables/{signal}\` (by the name of its output signal); the last value set holds.

## Numbers in proto3 JSON

Aperture's generator writes policies in proto3 JSON, where int64 fields are strings
(\`priority: "50"\`, \`count: "10"\`). Every numeric field of a policy (on the API, in a Policy resource,
in the CRD) takes what proto3 JSON takes for it:

- a JSON number, or a string holding a decimal number: \`"50"\`, \`"-3"\`, \`"0.25"\`, \`"1e3"\` (no spaces, no
  \`+\`, no leading zeros, no hexadecimal);
- for integer fields (\`count\`, \`num_sync\`, \`min_replicas\`, \`max_replicas\`) the number must be whole;
- \`"NaN"\`, \`"Infinity"\` and \`"-Infinity"\` only where a field allows them: a constant signal's
  \`value\` (the same as \`special_value\` \`NaN\`, \`+Inf\`, \`-Inf\`). Everywhere else they are refused.

The controller turns them into numbers before it compiles the policy, and then checks bounds as for
any number; anything else is refused with the JSON path of the field and what it wants (\`"high" is not
a finite number\`). The policy's spec is kept as written (the API answers it with its strings). In the
CRD an integer field is \`x-kubernetes-int-or-string\` and a double field takes any value (a structural
schema cannot say "number or string"): the controller's compile, and its validating webhook, judge it.

## Dynamic configuration

A policy's components may name keys of its *dynamic configuration*, one JSON object per policy whose
values change the running policy without publishing it again:

| Member | Component | Value | Effect |
|---|---|---|---|
| \`config_key\` | \`variable\` | number (or decimal string) | the variable's output, at once |
| \`config_key\` | \`bool_variable\` | boolean | the variable's output (1 or 0), at once |
| \`dry_run_config_key\` | \`flow_control.load_scheduler\`, \`flow_control.adaptive_load_scheduler\`, \`auto_scale.pod_scaler\`, \`auto_scale.auto_scaler\` | boolean | \`dry_run\` of that component (only it is published again) |
| \`pass_through_label_values_config_key\` | \`flow_control.sampler\`, \`flow_control.load_ramp\` | list of strings | \`pass_through_label_values\` (only the sampler is published again) |
| \`manual_mode_config_key\` | \`gradient_controller\` | boolean | \`manual_mode\`, read by the circuit at its next tick (at once) |

A key is a member name, or a dotted path into nested objects (\`scheduler.dry_run\` reads
\`{"scheduler": {"dry_run": true}}\`). A key absent from the configuration leaves what the spec says.
It is set in two places:

- the Policy resource's top-level \`dynamicConfig\` (beside \`spec\`);
- the controller's API: \`POST /v1/dynamic-configs/{policy}\` with \`{"dynamic_config": {...}}\` (answers
  the configuration in effect), \`GET /v1/dynamic-configs/{policy}\`, \`DELETE /v1/dynamic-configs/{policy}\`;
  over gRPC \`sluice.policies.v1.PolicyService\` \`PostDynamicConfig\`, \`GetDynamicConfig\`,
  \`DeleteDynamicConfig\`. What is posted is kept in etcd (\`<namespace>/dynamic-configs/<policy>\`) and
  comes back after a controller restart; its members win over the resource's.

A member that no component of the policy names, or a value of the wrong type, is refused with its
path (\`dynamic_config.capacty: unknown key ...; the keys are capacity\`): a 400 on the API, \`failed\`
on the resource's status. A policy that does not exist is a 404.

## What compilation checks

Every problem is reported at once, each with the JSON path of its field (such as
\`spec.circuit.components[0].flow_control.rate_limiter.in_ports.bucket_capacity\`); a policy with any
problem is refused as a whole (HTTP 400 on the API, \`status: failed\` on the resource):

- the schema below: unknown fields, missing required fields, types, enums, bounds, durations in Go
  syntax (\`10s\`, \`1m30s\`, \`250ms\`; intervals must be > 0), numbers (JSON numbers or their proto3
  JSON strings);
- a component names exactly one kind; Aperture parts Sluice does not build are refused by name:
  ${UNSUPPORTED};
- inert Aperture parts (\`resources.infra_meters\`, \`resources.telemetry_collectors\`) are accepted
  and listed as ignored (in the API's answer and the resource's status);
- every signal that is read is written by exactly one out-port;
- no loop of signals through stateless components only (Aperture would run it one component a tick
  late); Sluice names the components of the loop (loops through state run: see below);
- constants within the port's range: \`bucket_capacity\` and \`fill_amount\` finite and ≥ 0,
  \`accept_percentage\` within 0..100;
- selectors: at least one per component, \`control_point\` set, \`label_matcher\` in the preview's filter
  language (\`match_labels\`, \`match_expressions\`, \`expression\`; RE2 regular expressions), the same
  rules and messages as the preview;
- flux meter buckets: at most one bucket member, strictly increasing finite bounds, at most 1000;
- policy names: ${POLICY_NAME_RULE.replace(/'(.)'/g, '`$1`')}, on every path in (the API, Policy
  resources, etcd); a spec nested more than ${POLICY_SPEC_MAX_DEPTH} levels deep is refused.

${CIRCUIT_PARTS_DOC}
## Reference
`;

/** docs/policies.md, generated from the policy schema. */
export function renderPolicyDocs(): string {
  const out: string[] = [intro()];
  const root = PolicySpecSchema as unknown as Node;
  // Depth first: each object's own members come right after it.
  const render = (path: string, n: Node) => {
    const children: [string, Node][] = [];
    section(path, n, out, children);
    for (const [p, child] of children) render(p, child);
  };
  render('spec', root);
  render('status', PolicyStatusSchema as unknown as Node);
  out.push('## Shared types', '');
  const shared = new Map<string, Node>();
  collectShared(root, shared);
  for (const [title, n] of shared) {
    render(title, n);
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
