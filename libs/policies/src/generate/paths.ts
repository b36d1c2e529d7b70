import { fileURLToPath } from 'node:url';

/** Files of the repository generated from the policy schema (this file lives in libs/policies/{src,dist}/generate). */
export const POLICY_DOCS_PATH = fileURLToPath(new URL('../../../../docs/policies.md', import.meta.url));
export const POLICY_CRD_PATH = fileURLToPath(new URL('../../../../crds/policies.sluice.dev.yaml', import.meta.url));
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../../deploy/examples/', import.meta.url));
/** Copies of the CRD that installs carry: the controller chart's crds/ and the plain manifests. */
export const POLICY_CRD_COPIES = [
  fileURLToPath(new URL('../../../../charts/sluice-controller/crds/policies.sluice.dev.yaml', import.meta.url)),
  fileURLToPath(new URL('../../../../deploy/kubernetes/05-crd-policies.yaml', import.meta.url)),
];
