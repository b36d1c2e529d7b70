// The resource types the test API server serves: the built-in ones and the kinds of the CRDs it
// holds. A CRD's kinds come when it is stored (marked Established and NamesAccepted at once, as
// the apiextensions controller does) and go with it, their objects too.
import { ApiError, invalid } from './api-error.js';
import { grOf, isObject, nowRfc3339, sameJson } from './object-fields.js';
import { builtInTypes, crdProblems, typesOfCrd, type CrdLike, type ResourceType } from './resource-types.js';
import type { KubeObject, Store } from './store.js';

const CRD_GR = grOf({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' });

export function isCrd(type: { group: string; resource: string }): boolean {
  return grOf(type) === CRD_GR;
}

function keyOf(t: { group: string; version: string; resource: string }): string {
  return `${t.group}/${t.version}/${t.resource}`;
}

export class TypeRegistry {
  private readonly byKey = new Map<string, ResourceType>();

  constructor(private readonly store: Store) {
    for (const t of builtInTypes()) this.byKey.set(keyOf(t), t);
  }

  all(): ResourceType[] {
    return [...this.byKey.values()];
  }

  /** The type at /api(s)/<group>/<version>/<resource>; 404 if there is none. */
  get(group: string, version: string, resource: string): ResourceType {
    const t = this.byKey.get(keyOf({ group, version, resource }));
    if (!t) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    return t;
  }

  /** What admission checks of a CRD before it is stored: its own problems and plurals another CRD holds. */
  checkCrd(type: ResourceType, crd: KubeObject): void {
    const problems = crdProblems(crd as unknown as CrdLike);
    if (problems.length > 0) throw invalid(type.group, type.kind, crd.metadata.name, problems);
    for (const nt of typesOfCrd(crd as unknown as CrdLike)) {
      const existing = this.byKey.get(keyOf(nt));
      if (existing && existing.crd !== crd.metadata.name) throw invalid(type.group, type.kind, crd.metadata.name, [{ field: 'spec.names.plural', message: `Invalid value: "${nt.resource}": is already in use` }]);
    }
  }

  /** Registers the stored CRD's kinds and marks it Established and NamesAccepted. */
  establish(crd: KubeObject): KubeObject {
    const name = crd.metadata.name;
    for (const [k, t] of this.byKey) if (t.crd === name) this.byKey.delete(k);
    for (const t of typesOfCrd(crd as unknown as CrdLike)) this.byKey.set(keyOf(t), t);
    const spec = (crd as unknown as CrdLike).spec ?? {};
    const now = nowRfc3339();
    const status = {
      acceptedNames: spec.names ?? {},
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: now },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: now },
      ],
      storedVersions: (spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
    };
    if (sameJson(crd.status && (crd.status as { storedVersions?: unknown }).storedVersions, status.storedVersions) && isObject(crd.status) && Array.isArray(crd.status.conditions)) return crd;
    return this.store.put(CRD_GR, { ...crd, status });
  }

  /** The CRD is gone: its kinds and all their objects go too. */
  forget(crdName: string): void {
    for (const [k, t] of this.byKey) {
      if (t.crd !== crdName) continue;
      this.byKey.delete(k);
      for (const cr of this.store.list(grOf(t))) this.store.remove(grOf(t), cr);
    }
  }
}
