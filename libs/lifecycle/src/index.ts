export {
  DEFAULT_SHUTDOWN_DEADLINE_MS, ShutdownDeadlineError, StartupError, named,
  type Lifecycle, type NamedLifecycle, type ShutdownOptions,
} from './contract.js';
export { boundedShutdown, onceShutdown, SHUTDOWN_GRACE_MS, type ShutdownWork } from './bounded-shutdown.js';
export { LifecycleGroup, type LifecycleGroupOptions, type LifecycleLogger } from './lifecycle-group.js';
