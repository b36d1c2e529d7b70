// @sluice/scheduler: the weighted-fair load scheduler of the agent.
export {};
