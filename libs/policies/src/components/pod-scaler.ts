import { Type, type Static } from '@sinclair/typebox';
import type { PublishedDecision } from '../published.js';
import { bool, duration, int, obj, str } from '../schema/fields.js';
import { InPort, OutPort } from '../schema/ports.js';
import type { PublishedKubernetesObject, PublishedPodScaler } from '../published/pod-scaler.js';
import { defineKind, type KindContext, type Publishing, type SignalValue } from './kind.js';
import { POD_SCALER_OUT_PORTS } from './pod-scaler-report.js';
import { podScalerContract } from '../published/pod-scaler.js';

/** The kinds whose /scale subresource the agents read and write (apps/v1). */
export const SCALABLE_KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet'] as const;
const DNS_NAME = '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$';
/** The largest replica count Sluice writes (Kubernetes' int32). */
export const MAX_REPLICAS = 2_147_483_647;

export const KubernetesObjectSelector = obj(
  {
    agent_group: Type.Optional(str('The agent group whose agents scale the object (one of them at a time).', { default: 'default', minLength: 1 })),
    namespace: str('Namespace of the object.', { minLength: 1, pattern: DNS_NAME }),
    api_version: str('API version of the object: `apps/v1`.', { minLength: 1 }),
    kind: str('Kind of the object: `Deployment`, `StatefulSet` or `ReplicaSet`.', { minLength: 1 }),
    name: str('Name of the object.', { minLength: 1, pattern: DNS_NAME }),
  },
  'The Kubernetes object whose `/scale` subresource is read and written.',
);

/**
 * The pod scaler that a kind scaling `sel` publishes (the pod scaler's own, the auto scaler's): a
 * selector of another api_version or kind is a problem at `selPath`, so the policy is refused and
 * nothing is published; `scaling` is the rest of the published component.
 */
export function publishPodScaler(
  ctx: KindContext,
  sel: Static<typeof KubernetesObjectSelector>,
  selPath: string,
  scaling: Pick<PublishedPodScaler, 'min_replicas' | 'max_replicas' | 'scale_out_cooldown_ms' | 'scale_in_cooldown_ms' | 'dry_run'>,
): void {
  if (sel.api_version !== 'apps/v1') ctx.problem(`${selPath}.api_version`, `"${sel.api_version}" is not supported: apps/v1`);
  if (!(SCALABLE_KINDS as readonly string[]).includes(sel.kind)) ctx.problem(`${selPath}.kind`, `"${sel.kind}" is not scalable here: one of ${SCALABLE_KINDS.join(', ')}`);
  ctx.publish({
    kind: 'pod_scaler',
    policy_name: ctx.policyName,
    policy_hash: ctx.policyHash,
    component_id: ctx.componentId,
    agent_group: sel.agent_group ?? 'default',
    selectors: [],
    kubernetes_object: { namespace: sel.namespace, api_version: 'apps/v1', kind: sel.kind as PublishedKubernetesObject['kind'], name: sel.name },
    ...scaling,
  });
}

const schema = obj(
  {
    kubernetes_object_selector: KubernetesObjectSelector,
    in_ports: obj({ replicas: InPort }, 'Input ports. `replicas` is the desired number of replicas (rounded, then bounded by `min_replicas`/`max_replicas`).'),
    out_ports: Type.Optional(obj(
      {
        actual_replicas: Type.Optional(OutPort),
        configured_replicas: Type.Optional(OutPort),
        desired_replicas: Type.Optional(OutPort),
      },
      'Output ports, reported back by the agent that holds the object\'s Lease: `actual_replicas` (`/scale` status.replicas, the replicas running), `configured_replicas` (`/scale` spec.replicas) and `desired_replicas` (Sluice: the replicas the agent steers to, the latest decision within the bounds). Invalid while no agent reports (none holds the Lease, `/scale` cannot be read, the agent is gone) or the report is of another object. They are known at the start of a tick, so they may feed `replicas` back (a loop through the pod scaler is no cycle).',
    )),
    dry_run: Type.Optional(bool('Observe and report only: `/scale` is never written.', false)),
    dry_run_config_key: Type.Optional(str('The dynamic-configuration key whose boolean sets dry_run (the scaler is published again with it; the policy is not).')),
    min_replicas: Type.Optional(int('The fewest replicas the scaler sets (Sluice; Aperture keeps it on the auto scaler).', { default: 1, minimum: 0, maximum: MAX_REPLICAS })),
    max_replicas: Type.Optional(int('The most replicas the scaler sets (Sluice).', { default: 100, minimum: 1, maximum: MAX_REPLICAS })),
    scale_out_cooldown: Type.Optional(duration('After a scale-out, no other change for this long (Sluice).', '30s', false)),
    scale_in_cooldown: Type.Optional(duration('After a scale-in, no further scale-in for this long (Sluice).', '120s', false)),
  },
  'Sets the replicas of a Deployment, StatefulSet or ReplicaSet from a signal, through its `/scale` subresource. One agent of the group (the holder of a Kubernetes Lease per object) writes it; `auto_scale.kubernetes.enabled: false` on an agent turns it off there.',
);

export const podScalerKind: Publishing<typeof podScalerContract> = defineKind({
  path: ['auto_scale', 'pod_scaler'],
  publishes: [podScalerContract],
  schema,
  // Its outputs are what the agent reported, known before this tick's inputs: a circuit may feed
  // them back into `replicas` (e.g. one more than `configured_replicas`) without a cycle.
  delaysOutputs: true,
  compile(spec, ctx) {
    const min = spec.min_replicas ?? 1;
    const max = spec.max_replicas ?? 100;
    if (min > max) ctx.problem(`${ctx.path}.min_replicas`, `min_replicas (${min}) is more than max_replicas (${max})`);
    ctx.input(spec.in_ports.replicas, `${ctx.path}.in_ports.replicas`, { minimum: 0, finite: true });
    for (const port of POD_SCALER_OUT_PORTS) ctx.output(spec.out_ports?.[port], `${ctx.path}.out_ports.${port}`);
    const componentId = ctx.componentId;
    ctx.configKey(spec.dry_run_config_key, `${ctx.path}.dry_run_config_key`, 'boolean', { component_id: componentId, field: ['dry_run'] });
    publishPodScaler(ctx, spec.kubernetes_object_selector, `${ctx.path}.kubernetes_object_selector`, {
      min_replicas: min,
      max_replicas: max,
      scale_out_cooldown_ms: ctx.durationMs(spec.scale_out_cooldown, '30s'),
      scale_in_cooldown_ms: ctx.durationMs(spec.scale_in_cooldown, '120s'),
      dry_run: spec.dry_run ?? false,
    });
    return {
      createRuntime() {
        let replicas: number | undefined;
        return {
          // The replicas reported back by the agent scaling the object (absent: invalid).
          outputsAtStart(tick) {
            const reported = tick.reports?.get(componentId);
            return POD_SCALER_OUT_PORTS.map((port) => {
              const v = reported?.[port];
              return typeof v === 'number' && Number.isFinite(v) ? v : null;
            });
          },
          tick(inputs: readonly SignalValue[]) {
            const r = inputs[0];
            // An invalid signal keeps the last desired replicas.
            if (r !== null && r !== undefined && Number.isFinite(r)) replicas = Math.min(max, Math.max(min, Math.round(r)));
            const decision: PublishedDecision | undefined = replicas === undefined ? undefined : { kind: 'pod_scaler', replicas };
            return { outputs: [], ...(decision === undefined ? {} : { decision }) };
          },
        };
      },
    };
  },
});
