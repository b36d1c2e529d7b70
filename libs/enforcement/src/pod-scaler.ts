import type { PublishedComponent, PublishedDecision } from '@sluice/policies';
import type { ComponentBuilder, LiveComponent } from './live-component.js';

const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);
const MAX_REPLICAS = 2_147_483_647;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isReplicas = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_REPLICAS;
const isMs = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** What a published pod_scaler must hold; undefined when it is usable. Its selectors list is empty (it selects no flows). */
export function podScalerConfigProblem(c: Record<string, unknown>): string | undefined {
  if (!Array.isArray(c.selectors) || c.selectors.length !== 0) return 'selectors: want an empty list (a pod scaler selects no flows)';
  const o = c.kubernetes_object;
  if (!isObject(o)) return 'kubernetes_object: want an object';
  for (const f of ['namespace', 'name'] as const) if (typeof o[f] !== 'string' || o[f] === '') return `kubernetes_object.${f}: want a non-empty string`;
  if (o.api_version !== 'apps/v1') return 'kubernetes_object.api_version: want apps/v1';
  if (typeof o.kind !== 'string' || !SCALABLE.has(o.kind)) return `kubernetes_object.kind: want one of ${[...SCALABLE].join(', ')}`;
  if (!isReplicas(c.min_replicas)) return 'min_replicas: want an integer >= 0';
  if (!isReplicas(c.max_replicas) || c.max_replicas < c.min_replicas) return 'max_replicas: want an integer >= min_replicas';
  if (!isMs(c.scale_out_cooldown_ms)) return 'scale_out_cooldown_ms: want a number >= 0';
  if (!isMs(c.scale_in_cooldown_ms)) return 'scale_in_cooldown_ms: want a number >= 0';
  if (typeof c.dry_run !== 'boolean') return 'dry_run: want a boolean';
  return undefined;
}

/** What a pod_scaler decision must hold; undefined when it is usable. */
export function podScalerDecisionProblem(d: Record<string, unknown>): string | undefined {
  return isReplicas(d.replicas) ? undefined : 'replicas: want an integer >= 0';
}

/**
 * pod_scaler: no flow component. The agent's pod scaler (libs/kube scale, wired when
 * `auto_scale.kubernetes.enabled`) reads the same keys and writes /scale; here the component is
 * accepted, listed among the enforced ones with its decision, and a decision of another kind is refused.
 */
export const buildPodScaler: ComponentBuilder = (published: PublishedComponent): LiveComponent => {
  if (published.kind !== 'pod_scaler') throw new TypeError(`not a pod_scaler: ${published.kind}`);
  return {
    setDecision(decision: PublishedDecision | undefined) {
      if (decision !== undefined && decision.kind !== 'pod_scaler') {
        throw new TypeError(`${published.policy_name}/${published.component_id}: a ${decision.kind} decision does not fit a pod_scaler`);
      }
    },
  };
};
