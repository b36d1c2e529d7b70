export type { Status, StatusInput, StatusSummary, StatusChangeListener } from './status.js';
export { StatusRegistry, normalizePath } from './status-registry.js';
export { healthRouter } from './health-router.js';
export { healthGrpcService, OVERALL_SERVICE, type HealthGrpcService, type ServingStatus } from './health-grpc.js';
export { registerProcessJobs, predicateJob, type ProcessJobsConfig, type ProcessChecks, type ProcessJobs } from './process-jobs.js';
export { eventLoopJob, type EventLoopJob } from './event-loop-job.js';
