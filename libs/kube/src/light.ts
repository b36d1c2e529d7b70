// @sluice/kube/light: what the processes use before (or without) a Kubernetes client, none of it
// loading @kubernetes/client-node (5-9 s and tens of MB on a loaded machine). The processes import
// '@sluice/kube' with import() only when discovery, the CR watcher or the pod scalers are on and
// a Kubernetes API is there.
export { KubeConfigError, inPod, kubeConfigSource, type KubeConfigSource } from './kube-config-source.js';
export { entitiesPage, DEFAULT_ENTITIES_LIMIT, MAX_ENTITIES_LIMIT, type EntitiesQuery, type EntitiesPage } from './entities-page.js';
export { discoveryScope } from './discovery-scope.js';
export { AdmissionWebhook, ADMISSION_API_VERSION, MAX_ADMISSION_BYTES, type AdmissionAnswer, type AdmissionResult, type AdmissionWebhookOptions } from './webhook/admission-webhook.js';
export { admissionRoute, readAdmissionBody, type AdmissionHandler, type AdmissionHttpAnswer } from './webhook/admission-route.js';
export { parseAdmissionReview, type AdmissionRequest, type ReviewProblem } from './webhook/admission-review.js';
export { PolicyValidationWebhook, POLICY_VALIDATION_GROUP, POLICY_VALIDATION_KIND, type PolicyVerdict, type PolicyValidationOptions, type PolicyReviewAnswer, type PolicyReviewResult } from './webhook/policy-validation.js';
export { injectOptionsOf, DEFAULT_INJECT_OPTIONS, type InjectOptions, type InjectMode } from './webhook/inject-options.js';
export { PodScalers, type PodScalerSpec, type PodScalerStatus, type PodScalersOptions, type PodScalerObservation } from './scale/pod-scalers.js';
export { apiStatus } from './scale/api-status.js';
export { ProcessKube } from './process-kube.js';
