import type { PublishedComponent, PublishedDecision, PublishedSelector } from '@sluice/policies';
import { MAX_SELECTORS_PER_COMPONENT } from '@sluice/policies';
import { podScalerConfigProblem, podScalerDecisionProblem } from './pod-scaler.js';

/** The result of reading one etcd value: the parsed shape, or why it is refused. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const COMPONENT_KINDS = new Set(['rate_limiter', 'sampler', 'classifier', 'flux_meter', 'load_scheduler', 'pod_scaler']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function parseJson(text: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function checkSelectors(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return 'selectors: want a non-empty list';
  if (v.length > MAX_SELECTORS_PER_COMPONENT) return `selectors: ${v.length} selectors; a component may have at most ${MAX_SELECTORS_PER_COMPONENT}`;
  for (const [i, s] of (v as unknown[]).entries()) {
    if (!isObject(s)) return `selectors[${i}]: want an object`;
    const sel = s as Partial<Record<keyof PublishedSelector, unknown>>;
    if (typeof sel.control_point !== 'string' || sel.control_point === '') return `selectors[${i}].control_point: want a non-empty string`;
    if (sel.service !== undefined && typeof sel.service !== 'string') return `selectors[${i}].service: want a string`;
    if (sel.agent_group !== undefined && typeof sel.agent_group !== 'string') return `selectors[${i}].agent_group: want a string`;
  }
  return undefined;
}

function checkKind(c: Record<string, unknown>): string | undefined {
  switch (c.kind) {
    case 'rate_limiter': {
      const p = c.parameters;
      if (!isObject(p)) return 'parameters: want an object';
      if (!isFiniteNumber(p.interval_ms) || p.interval_ms <= 0) return 'parameters.interval_ms: want a number > 0';
      if (typeof p.continuous_fill !== 'boolean') return 'parameters.continuous_fill: want a boolean';
      if (!isFiniteNumber(p.max_idle_time_ms)) return 'parameters.max_idle_time_ms: want a number';
      if (p.label_key !== undefined && typeof p.label_key !== 'string') return 'parameters.label_key: want a string';
      if (p.tokens_label_key !== undefined && typeof p.tokens_label_key !== 'string') return 'parameters.tokens_label_key: want a string';
      return undefined;
    }
    case 'sampler': {
      const p = c.parameters;
      if (!isObject(p)) return 'parameters: want an object';
      if (p.label_key !== undefined && typeof p.label_key !== 'string') return 'parameters.label_key: want a string';
      if (!Array.isArray(c.pass_through_label_values) || !c.pass_through_label_values.every((x) => typeof x === 'string')) return 'pass_through_label_values: want a list of strings';
      return undefined;
    }
    case 'classifier':
      if (!Number.isInteger(c.classifier_index)) return 'classifier_index: want an integer';
      if (!isObject(c.rules)) return 'rules: want an object';
      return undefined;
    case 'flux_meter':
      if (typeof c.name !== 'string' || c.name === '') return 'name: want a non-empty string';
      if (!Array.isArray(c.buckets) || !c.buckets.every(isFiniteNumber)) return 'buckets: want a list of numbers';
      return undefined;
    default:
      return undefined;
  }
}

/** A PublishedComponent from its etcd value; the checks are the ones enforcement relies on. */
export function parseComponent(text: string): Parsed<PublishedComponent> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const c = json.value;
  if (!isObject(c)) return { ok: false, error: 'want a JSON object' };
  if (typeof c.kind !== 'string' || !COMPONENT_KINDS.has(c.kind)) return { ok: false, error: `kind: want one of ${[...COMPONENT_KINDS].join(', ')}` };
  for (const f of ['policy_name', 'policy_hash', 'component_id', 'agent_group'] as const) {
    if (typeof c[f] !== 'string') return { ok: false, error: `${f}: want a string` };
  }
  const bad = c.kind === 'pod_scaler' ? podScalerConfigProblem(c) : checkSelectors(c.selectors) ?? checkKind(c);
  if (bad !== undefined) return { ok: false, error: bad };
  return { ok: true, value: c as unknown as PublishedComponent };
}

/** A PublishedDecision from its etcd value. */
export function parseDecision(text: string): Parsed<PublishedDecision> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const d = json.value;
  if (!isObject(d)) return { ok: false, error: 'want a JSON object' };
  if (d.kind === 'pod_scaler') {
    const bad = podScalerDecisionProblem(d);
    return bad === undefined ? { ok: true, value: d as unknown as PublishedDecision } : { ok: false, error: bad };
  }
  if (typeof d.pass_through !== 'boolean') return { ok: false, error: 'pass_through: want a boolean' };
  switch (d.kind) {
    case 'rate_limiter':
      if (!isFiniteNumber(d.bucket_capacity) || d.bucket_capacity < 0) return { ok: false, error: 'bucket_capacity: want a number >= 0' };
      if (!isFiniteNumber(d.fill_amount) || d.fill_amount < 0) return { ok: false, error: 'fill_amount: want a number >= 0' };
      break;
    case 'sampler':
      if (!isFiniteNumber(d.accept_percentage) || d.accept_percentage < 0 || d.accept_percentage > 100) return { ok: false, error: 'accept_percentage: want a number within 0..100' };
      break;
    case 'load_scheduler':
      if (!isFiniteNumber(d.load_multiplier) || d.load_multiplier < 0) return { ok: false, error: 'load_multiplier: want a number >= 0' };
      break;
    default:
      return { ok: false, error: 'kind: want rate_limiter, sampler, load_scheduler or pod_scaler' };
  }
  return { ok: true, value: d as unknown as PublishedDecision };
}
