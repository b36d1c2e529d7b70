// @kubernetes/client-node, re-exported as one namespace (`import { k8s } from '@sluice/kube'`) so
// the rest of the repository names a single entry point for the client.
export * as k8s from '@kubernetes/client-node';
