// @sluice/scheduler: the weighted-fair load scheduler of the agent.
export { LoadScheduler, type LoadSchedulerOptions, type LoadSchedulerDecision, type SchedulerDecideContext } from './load-scheduler.js';
export { parseSchedulerParameters, type SchedulerParameters, type WorkloadParameters, type WorkloadSpec } from './parameters.js';
export { LOAD_SCHEDULER_KIND, readSchedulerParameters } from './scheduler-kind.js';
export { QuotaScheduler, QUOTA_SCHEDULER_KIND, type QuotaSchedulerOptions } from './quota-scheduler.js';
export { WorkloadTable, type MatchedWorkload } from './workloads.js';
export { FairQueue, type QueuedFlow, type DropReason } from './fair-queue.js';
export { TokenPacer } from './token-pacer.js';
export { TokenRate } from './token-rate.js';
export { TokenEstimator } from './token-estimator.js';
export { schedulerMetrics, SCHEDULER_METRICS, APERTURE_SCHEDULER_METRICS, type SchedulerMetrics, type ComponentMetrics, type RejectReason, type SchedulerGauges } from './metrics.js';
export { realClock, type SchedulerClock } from './clock.js';
export { ManualClock } from './manual-clock.js';
