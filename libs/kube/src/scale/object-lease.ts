// One writer per scaled object: a coordination.k8s.io/v1 Lease in the object's namespace, held by
// one agent and renewed at every step; another agent takes it over once it has not been renewed
// for its duration. Writes carry the Lease's resourceVersion, so two agents never both win.
import { k8s } from '../k8s.js';
import type { KubeClient } from '../kube-client.js';
import { apiStatus } from './scale-api.js';
import type { LeaseApi } from './lease-holder.js';

export { holdLease, holdNamedLease, leaseName, type LeaseApi, type LeaseRecord } from './lease-holder.js';

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
