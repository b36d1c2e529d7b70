// Which endpoints an agent keeps (see KubernetesDiscovery): a sidecar
// (`cloudext.installation_mode: KUBERNETES_SIDECAR`) its own pod, from POD_NAME and POD_NAMESPACE;
// otherwise, with NODE_NAME (a daemonset, from the downward API), the pods of its node; else all.
import type { DiscoveryScope } from './kubernetes-discovery.js';

export function discoveryScope(env: NodeJS.ProcessEnv, installationMode: string): { scope: DiscoveryScope; describe: string } {
  const pod = env.POD_NAME ?? '';
  const ns = env.POD_NAMESPACE ?? '';
  const node = env.NODE_NAME ?? '';
  if (installationMode === 'KUBERNETES_SIDECAR' && pod !== '' && ns !== '') return { scope: { pod: { name: pod, namespace: ns } }, describe: `pod ${ns}/${pod}` };
  if (node !== '') return { scope: { nodeName: node }, describe: `node ${node}` };
  if (pod !== '' && ns !== '') return { scope: { pod: { name: pod, namespace: ns } }, describe: `pod ${ns}/${pod}` };
  return { scope: {}, describe: 'all endpoints' };
}
