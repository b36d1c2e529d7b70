export type { Component } from './component.js';
export { Lifecycle, StartupError, type LifecycleLogger } from './lifecycle.js';
export { runUntilSignal } from './run-until-signal.js';
export { createProcessRuntime, shutdownBudgetMs, type ProcessRuntime, type ProcessService } from './process-runtime.js';
export type { RuntimeConfig } from './runtime-config.js';
export { installCrashGuards, type CrashGuardLogger, type GuardedProcess } from './crash-guards.js';
export { wireTelemetry, remoteWriteLabels, type TelemetryWiring } from './telemetry.js';
