// @sluice/etcd: the etcd client, lease keeper, publisher and resyncing watcher.
export {};
