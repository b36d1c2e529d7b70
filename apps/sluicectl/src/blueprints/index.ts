// Blueprints: values files turned into Policy resources (`sluicectl blueprints`).
import type { Blueprint } from './blueprint.js';
import { loadRamping } from './load-ramping.js';
import { loadBasedAutoScaling } from './load-based-auto-scaling.js';
import { quotaScheduling } from './quota-scheduling.js';
import { rateLimiting } from './rate-limiting.js';
import { serviceProtectionAverageLatency } from './service-protection-average-latency.js';
import { serviceProtectionPromql } from './service-protection-promql.js';
import { workloadPrioritization } from './workload-prioritization.js';

export type { Blueprint, PolicyResource, JsonSchema } from './blueprint.js';
export { generatePolicy, readValuesFile, valuesProblems, exampleValuesYaml } from './values.js';
export { fieldsOf, blueprintMarkdown, fieldsText, type Field } from './fields.js';

/** Every blueprint, by name. */
export const BLUEPRINTS: readonly Blueprint[] = [rateLimiting, serviceProtectionAverageLatency, serviceProtectionPromql, workloadPrioritization, loadRamping, loadBasedAutoScaling, quotaScheduling];

/** The blueprint called `name`, or undefined. */
export function findBlueprint(name: string): Blueprint | undefined {
  return BLUEPRINTS.find((b) => b.name === name);
}
