import { fileURLToPath } from 'node:url';

/** Files of the repository generated from the policy schema (this file lives in libs/policies/{src,dist}/generate). */
export const POLICY_DOCS_PATH = fileURLToPath(new URL('../../../../docs/policies.md', import.meta.url));
export const POLICY_CRD_PATH = fileURLToPath(new URL('../../../../crds/policies.sluice.dev.yaml', import.meta.url));
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../../deploy/examples/', import.meta.url));
