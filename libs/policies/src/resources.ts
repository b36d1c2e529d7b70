import { checkClassifierRule } from './components/classifier-rule.js';
import type { PolicyProblem } from './problems.js';
import { memberPath } from './path.js';
import { fluxMeterComponentId, type PublishedClassifierRule, type PublishedComponent, type PublishedSelector } from './published.js';
import type { PolicySpec } from './schema/policy.js';
import { DEFAULT_FLUX_METER_BUCKETS, type FluxMeter } from './schema/resources.js';
import type { Selector } from './schema/selector.js';

/** `obj[key] = value` that keeps keys such as `__proto__` as own properties. */
function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

type CheckSelectors = (selectors: readonly Selector[], path: string) => Map<string, PublishedSelector[]>;

/** The upper bounds of a flux meter's histogram, or a problem. */
export function resolveBuckets(meter: FluxMeter, path: string): { buckets?: number[]; problem?: PolicyProblem } {
  const members = (['static_buckets', 'linear_buckets', 'exponential_buckets', 'exponential_buckets_range'] as const).filter(
    (m) => meter[m] !== undefined,
  );
  if (members.length > 1) return { problem: { path, message: `set at most one of static_buckets, linear_buckets, exponential_buckets, exponential_buckets_range (found ${members.join(', ')})` } };
  let buckets: number[];
  let at: string;
  if (meter.linear_buckets !== undefined) {
    const { start, width, count } = meter.linear_buckets;
    buckets = Array.from({ length: count }, (_, i) => start + width * i);
    at = `${path}.linear_buckets`;
  } else if (meter.exponential_buckets !== undefined) {
    const { start, factor, count } = meter.exponential_buckets;
    buckets = Array.from({ length: count }, (_, i) => start * factor ** i);
    at = `${path}.exponential_buckets`;
  } else if (meter.exponential_buckets_range !== undefined) {
    const { min, max, count } = meter.exponential_buckets_range;
    at = `${path}.exponential_buckets_range`;
    if (!(max > min)) return { problem: { path: `${at}.max`, message: `max (${max}) must be greater than min (${min})` } };
    const factor = count === 1 ? 1 : (max / min) ** (1 / (count - 1));
    buckets = Array.from({ length: count }, (_, i) => (i === count - 1 ? max : min * factor ** i));
  } else {
    buckets = meter.static_buckets?.buckets ?? DEFAULT_FLUX_METER_BUCKETS;
    at = meter.static_buckets === undefined ? path : `${path}.static_buckets.buckets`;
  }
  for (let i = 0; i < buckets.length; i++) {
    if (!Number.isFinite(buckets[i])) return { problem: { path: at, message: `bucket ${i} is not a finite number (${buckets[i]})` } };
    if (i > 0 && !(buckets[i] > buckets[i - 1])) return { problem: { path: at, message: `buckets must be strictly increasing (bucket ${i}: ${buckets[i]} after ${buckets[i - 1]})` } };
  }
  return { buckets: [...buckets] };
}

/** Classifiers and flux meters of `resources.flow_control`, published per agent group. */
export function compileResources(
  policy: PolicySpec,
  name: string,
  hash: string,
  checkSelectors: CheckSelectors,
  problems: PolicyProblem[],
): PublishedComponent[] {
  const out: PublishedComponent[] = [];
  const fc = policy.resources?.flow_control;
  (fc?.classifiers ?? []).forEach((classifier, index) => {
    const path = `spec.resources.flow_control.classifiers[${index}]`;
    const rules: Record<string, PublishedClassifierRule> = {};
    const entries = Object.entries(classifier.rules ?? {});
    if (entries.length === 0) problems.push({ path: `${path}.rules`, message: 'a classifier needs at least one rule' });
    for (const [label, rule] of entries) {
      // the agent's own check: what it cannot run is refused here, naming the field
      const checked = checkClassifierRule(label, rule, memberPath(`${path}.rules`, label));
      if ('problem' in checked) {
        problems.push(checked.problem);
        continue;
      }
      const e = rule.extractor;
      const hidden = checked.rule.telemetry ? {} : { telemetry: false };
      if (e.json !== undefined) {
        setOwn(rules, label, { extractor: { json: { from: e.json.from, pointer: e.json.pointer ?? '' } }, ...hidden });
      } else if (e.path_templates !== undefined) {
        const values: Record<string, string> = {};
        for (const [t, v] of Object.entries(e.path_templates.template_values)) setOwn(values, t, v);
        setOwn(rules, label, { extractor: { path_templates: { template_values: values } }, ...hidden });
      } else if (e.jwt !== undefined) {
        setOwn(rules, label, { extractor: { jwt: { from: e.jwt.from, json_pointer: e.jwt.json_pointer ?? '' } }, ...hidden });
      } else if (e.address !== undefined) {
        setOwn(rules, label, { extractor: { address: { from: e.address.from } }, ...hidden });
      } else if (e.from !== undefined) setOwn(rules, label, { extractor: { from: e.from }, ...hidden });
    }
    for (const [group, selectors] of checkSelectors(classifier.selectors, `${path}.selectors`)) {
      out.push({
        kind: 'classifier',
        policy_name: name,
        policy_hash: hash,
        component_id: `classifier.${index}`,
        agent_group: group,
        selectors,
        classifier_index: index,
        rules,
      });
    }
  });
  for (const [meterName, meter] of Object.entries(fc?.flux_meters ?? {})) {
    const path = memberPath('spec.resources.flow_control.flux_meters', meterName);
    const { buckets, problem } = resolveBuckets(meter, path);
    if (problem !== undefined) problems.push(problem);
    for (const [group, selectors] of checkSelectors(meter.selectors, `${path}.selectors`)) {
      out.push({
        kind: 'flux_meter',
        policy_name: name,
        policy_hash: hash,
        component_id: fluxMeterComponentId(meterName),
        agent_group: group,
        selectors,
        name: meterName,
        attribute_key: meter.attribute_key ?? 'workload_duration_ms',
        buckets: buckets ?? [],
      });
    }
  }
  return out;
}
