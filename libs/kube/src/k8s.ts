// @kubernetes/client-node, loaded after the Node 20 shims (node20-compat.ts). Import client-node
// through this module (`import { k8s } from '@sluice/kube'`), never directly, so the shims are
// always in place first.
import './node20-compat.js';
export * as k8s from '@kubernetes/client-node';
