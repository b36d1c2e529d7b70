// @sluice/enforcement: the agent side of policies: published component configs and decisions from etcd into the engine.
export {};
