// The scale subresource of the test API server: the object seen as an autoscaling/v1 Scale
// (replicas and selector read at the CRD's paths), and a Scale written back as spec replicas.
import { badRequest, conflict, invalid } from './api-error.js';
import { matchLabelsString } from './label-selector.js';
import { isObject, setPath } from './object-fields.js';
import type { ResourceType, ScaleSpec } from './resource-types.js';
import type { KubeObject } from './store.js';
import { evalJsonPath } from './table.js';

export function toScale(spec: ScaleSpec, o: KubeObject): KubeObject {
  const sel = spec.labelSelectorPath ? evalJsonPath(o, spec.labelSelectorPath) : undefined;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
    spec: { replicas: Number(evalJsonPath(o, spec.specReplicasPath) ?? 0) },
    status: { replicas: Number(evalJsonPath(o, spec.statusReplicasPath) ?? 0), selector: typeof sel === 'string' ? sel : matchLabelsString(sel) },
  };
}

/** The object `old` with the replicas of the Scale `next` (checked: a whole number, the same resourceVersion). */
export function scaled(type: ResourceType, spec: ScaleSpec, old: KubeObject, next: unknown): KubeObject {
  const name = old.metadata.name;
  if (!isObject(next) || !isObject(next.spec)) throw badRequest('a Scale with spec.replicas is required');
  const replicas = next.spec.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) throw invalid('autoscaling', 'Scale', name, [{ field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` }]);
  const rv = isObject(next.metadata) ? next.metadata.resourceVersion : undefined;
  if (typeof rv === 'string' && rv !== '' && rv !== old.metadata.resourceVersion) throw conflict(type.group, type.resource, name);
  const updated = structuredClone(old);
  setPath(updated, spec.specReplicasPath, replicas);
  return updated;
}
