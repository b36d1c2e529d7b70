// @sluice/kube: one Kubernetes client per process, shared informers, the Policy CR watcher.
import './node20-compat.js';
export { k8s } from './k8s.js';
export type { ApiState, KubeLogger } from './api-state.js';
export { Backoff, type BackoffOptions } from './backoff.js';
export { loadKubeConfig, kubeConfigSource, inPod, proxyFor, applyHttpClient, KubeConfigError, type LoadedKubeConfig, type LoadKubeConfigOptions, type KubeConfigSource } from './kube-config.js';
export { SharedInformer, informerKey, type InformerSpec, type InformerHandler, type ListFn, type SharedInformerOptions } from './shared-informer.js';
export { KubeClient, type KubeClientOptions } from './kube-client.js';
export { PolicyCrWatcher, POLICY_GROUP, POLICY_VERSION, POLICY_PLURAL, POLICY_KIND, type PolicySink, type PolicyApplyResult, type PolicyResource, type PolicyCrWatcherOptions } from './policy-cr-watcher.js';
export { desiredStatus, sameStatus, type PolicyStatus, type PolicyPhase, type PolicyCondition } from './policy-status.js';
export { KubernetesDiscovery, type KubernetesDiscoveryOptions, type DiscoveryScope, type SkipReason } from './kubernetes-discovery.js';
export { entitiesPage, DEFAULT_ENTITIES_LIMIT, MAX_ENTITIES_LIMIT, type EntitiesQuery, type EntitiesPage } from './entities-page.js';
export { discoveryScope } from './discovery-scope.js';
export { AdmissionWebhook, ADMISSION_API_VERSION, MAX_ADMISSION_BYTES, type AdmissionAnswer, type AdmissionResult, type AdmissionWebhookOptions } from './webhook/admission-webhook.js';
export { planInjection, pointerToken, ANNOTATIONS, NAMESPACE_LABEL, NAMESPACE_LABEL_VALUE, TAP_CONTAINER, AGENT_CONTAINER, UPSTREAM_PORT_NAME, type InjectionPlan, type JsonPatchOp, type InjectionContext } from './webhook/pod-injection.js';
export { injectOptionsFromEnv, DEFAULT_INJECT_OPTIONS, INJECTOR_ENV, type InjectOptions, type InjectMode } from './webhook/inject-options.js';
export { POD_SCHEMA, podCrossFieldProblems } from './webhook/pod-check.js';
