// The test Kubernetes API server (see server.ts) and its kubeconfig.
export { KubeApiServer, type KubeApiOptions } from './server.js';
export { kubeconfigYaml, writeKubeconfig } from './kubeconfig.js';
export type { KubeObject } from './store.js';
export { parseLabelSelector } from './label-selector.js';
export { mergePatch, strategicMergePatch } from './patch.js';
export { startTestKubeApi, type TestKubeApi } from './testing.js';
