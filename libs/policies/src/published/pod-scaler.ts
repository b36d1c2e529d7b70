import { Type, type Static } from '@sinclair/typebox';
import { NoSelectors, NonNegative, publishedComponent, publishedDecision, publishedKind, EXAMPLE_COMMON } from './common.js';

const MAX_REPLICAS = 2_147_483_647;
const Replicas = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_REPLICAS, description });

/** The Kubernetes object a pod scaler scales. */
export const PublishedKubernetesObject = Type.Object({
  namespace: Type.String({ minLength: 1 }),
  api_version: Type.Literal('apps/v1'),
  kind: Type.Unsafe<'Deployment' | 'StatefulSet' | 'ReplicaSet'>({ type: 'string', enum: ['Deployment', 'StatefulSet', 'ReplicaSet'] }),
  name: Type.String({ minLength: 1 }),
});
export type PublishedKubernetesObject = Static<typeof PublishedKubernetesObject>;

/** auto_scale.pod_scaler: one agent of the group scales the object; it selects no flows. */
export const PublishedPodScaler = publishedComponent('pod_scaler', {
  kubernetes_object: PublishedKubernetesObject,
  min_replicas: Replicas('Fewest replicas the agent sets.'),
  max_replicas: Replicas('Most replicas the agent sets.'),
  scale_out_cooldown_ms: NonNegative('After a scale-out, no other change for this long.'),
  scale_in_cooldown_ms: NonNegative('After a scale-in, no further scale-in for this long.'),
  dry_run: Type.Boolean({ description: 'Observe and report only.' }),
}, NoSelectors);
export type PublishedPodScaler = Static<typeof PublishedPodScaler>;

/** The desired replicas: an integer within the component's bounds. */
export const PodScalerDecision = publishedDecision('pod_scaler', { replicas: Replicas('The desired replicas.') });
export type PodScalerDecision = Static<typeof PodScalerDecision>;

export const podScalerContract = publishedKind({
  component: PublishedPodScaler,
  decision: PodScalerDecision,
  check: (c) => c.max_replicas < c.min_replicas ? { path: 'max_replicas', message: `must be >= min_replicas (${c.min_replicas}), got ${c.max_replicas}` } : undefined,
  example: {
    component: {
      ...EXAMPLE_COMMON, kind: 'pod_scaler', component_id: 'root.0', selectors: [],
      kubernetes_object: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
      min_replicas: 1, max_replicas: 3, scale_out_cooldown_ms: 0, scale_in_cooldown_ms: 0, dry_run: false,
    },
    decision: { kind: 'pod_scaler', replicas: 2 },
  },
});
