import { Counter, Gauge, type Registry } from 'prom-client';

export interface EnforcementMetrics {
  components: Gauge<'kind'>;
  malformed: Counter<'type'>;
  decisionsApplied: Counter<'kind'>;
  replaced: Counter<string>;
  selectorLimitRefusals: Counter<string>;
}

function metric<T>(registry: Registry | undefined, name: string, make: (registers: Registry[]) => T): T {
  const existing = registry?.getSingleMetric(name);
  return existing !== undefined ? existing as T : make(registry === undefined ? [] : [registry]);
}

/** Metrics of the enforcement of published policies (reused when already in `registry`). */
export function enforcementMetrics(registry: Registry | undefined): EnforcementMetrics {
  return {
    components: metric(registry, 'policy_enforced_components', (registers) => new Gauge({ name: 'policy_enforced_components', help: 'Published policy components this agent enforces, by kind.', labelNames: ['kind'], registers })),
    malformed: metric(registry, 'policy_malformed_values_total', (registers) => new Counter({ name: 'policy_malformed_values_total', help: 'Published values this agent could not use (bad JSON, a bad shape, a bad selector, a decision of another kind), by type: config or decision.', labelNames: ['type'], registers })),
    decisionsApplied: metric(registry, 'policy_decisions_applied_total', (registers) => new Counter({ name: 'policy_decisions_applied_total', help: 'Decisions applied to live components, by kind.', labelNames: ['kind'], registers })),
    selectorLimitRefusals: metric(registry, 'policy_selector_limit_refusals_total', (registers) => new Counter({ name: 'policy_selector_limit_refusals_total', help: 'Published components refused because the agent would enforce more selectors than it allows in all (each value counted once).', registers })),
    replaced: metric(registry, 'policy_components_replaced_total', (registers) => new Counter({ name: 'policy_components_replaced_total', help: 'Components rebuilt because their published configuration changed.', registers })),
  };
}
