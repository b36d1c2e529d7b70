// One writer per scaled object: a coordination.k8s.io/v1 Lease in the object's namespace, held by
// one agent and renewed at every step; another agent takes it over once it has not been renewed
// for its duration. Writes carry the Lease's resourceVersion, so two agents never both win.
import { k8s } from '../k8s.js';
import type { KubeClient } from '../kube-client.js';
import { apiStatus } from './scale-api.js';
import type { ScaleObject } from './scale-plan.js';

export interface LeaseRecord {
  holder?: string;
  renewMs?: number;
  durationS?: number;
  transitions?: number;
  resourceVersion?: string;
}

/** Reads, creates and updates one Lease; the Kubernetes implementation is below. */
export interface LeaseApi {
  /** undefined when there is none. */
  read(namespace: string, name: string): Promise<LeaseRecord | undefined>;
  /** Creates (no resourceVersion) or replaces (with it); false when someone else wrote first (409). */
  write(namespace: string, name: string, record: LeaseRecord): Promise<boolean>;
}

/** The Lease's name for an object: `sluice-pod-scaler-<kind>-<name>`, within 253 characters. */
export function leaseName(o: ScaleObject): string {
  return `sluice-pod-scaler-${o.kind.toLowerCase()}-${o.name}`.slice(0, 253).replace(/[-.]+$/, '');
}

/** Whether `me` holds the Lease after this attempt (taking or renewing it as needed). */
export async function holdLease(api: LeaseApi, o: ScaleObject, me: string, durationS: number, nowMs: number): Promise<boolean> {
  const name = leaseName(o);
  const cur = await api.read(o.namespace, name);
  if (cur === undefined) return api.write(o.namespace, name, { holder: me, renewMs: nowMs, durationS, transitions: 0 });
  const expired = cur.renewMs === undefined || cur.renewMs + (cur.durationS ?? durationS) * 1000 < nowMs;
  if (cur.holder !== me && cur.holder && !expired) return false;
  const transitions = (cur.transitions ?? 0) + (cur.holder === me ? 0 : 1);
  return api.write(o.namespace, name, { holder: me, renewMs: nowMs, durationS, transitions, ...(cur.resourceVersion ? { resourceVersion: cur.resourceVersion } : {}) });
}

export function kubernetesLeaseApi(client: KubeClient): LeaseApi {
  const api = () => client.api(k8s.CoordinationV1Api);
  return {
    async read(namespace, name) {
      try {
        const l = await api().readNamespacedLease({ name, namespace }, client.requestOptions());
        const renew = l.spec?.renewTime ?? l.spec?.acquireTime;
        return {
          ...(l.spec?.holderIdentity ? { holder: l.spec.holderIdentity } : {}),
          ...(renew ? { renewMs: new Date(renew).getTime() } : {}),
          ...(l.spec?.leaseDurationSeconds !== undefined ? { durationS: l.spec.leaseDurationSeconds } : {}),
          ...(l.spec?.leaseTransitions !== undefined ? { transitions: l.spec.leaseTransitions } : {}),
          ...(l.metadata?.resourceVersion ? { resourceVersion: l.metadata.resourceVersion } : {}),
        };
      } catch (err) {
        if (apiStatus(err) === 404) return undefined;
        throw err;
      }
    },
    async write(namespace, name, r) {
      const body: k8s.V1Lease = {
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
        metadata: { name, namespace, labels: { 'app.kubernetes.io/managed-by': 'sluice-agent' }, ...(r.resourceVersion ? { resourceVersion: r.resourceVersion } : {}) },
        spec: {
          ...(r.holder ? { holderIdentity: r.holder } : {}),
          leaseDurationSeconds: r.durationS,
          leaseTransitions: r.transitions,
          renewTime: new k8s.V1MicroTime(r.renewMs ?? Date.now()),
        },
      };
      try {
        if (r.resourceVersion) await api().replaceNamespacedLease({ name, namespace, body }, client.requestOptions());
        else await api().createNamespacedLease({ namespace, body }, client.requestOptions());
        return true;
      } catch (err) {
        if (apiStatus(err) === 409) return false;
        throw err;
      }
    },
  };
}
