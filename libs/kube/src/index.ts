// @sluice/kube: one Kubernetes client per process, shared informers, the Policy CR watcher, service discovery, the injection webhook.
export {};
