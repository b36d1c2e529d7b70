import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GrpcCode, SluiceError, ErrorCode } from '@sluice/errors';
import type { ProfilersConfig, ServiceName } from '../config.js';
import { defaultProfilesDir, fileTimestamp, checkServiceName } from '../names.js';
import { ProfilerBusyError } from './busy-error.js';
import { acquireProfiler, profilerHolder, releaseProfiler, TIME_PROFILER_OPTIONS } from './profiler-state.js';
import { pprof } from './pprof-module.js';

export interface CpuProfilerHandle {
  /** Where the profile will be written. */
  readonly directory: string;
  /** Stops profiling and writes `<dir>/<service>-cpu-<timestamp>.pprof`; resolves to its path. Idempotent. */
  stop(): Promise<string>;
}

/** `profilers.profiles_path`: `default` → /var/log/sluice/<service>/profiles. */
export function profilesDirectory(config: ProfilersConfig, service: string): string {
  return config.profiles_path === 'default' ? defaultProfilesDir(service) : resolve(config.profiles_path);
}

/**
 * Profiles the process from now until stop() when `profilers.cpu_profiler`
 * is true (undefined otherwise). While it runs, /debug/pprof/profile answers 409.
 */
export function startCpuProfiler(config: ProfilersConfig, service: ServiceName): CpuProfilerHandle | undefined {
  if (!config.cpu_profiler) return undefined;
  const name = checkServiceName(service);
  const directory = profilesDirectory(config, name);
  try {
    mkdirSync(directory, { recursive: true });
  } catch (err) {
    throw new SluiceError(ErrorCode.PROFILES_PATH, `cannot create the profiles directory ${directory}: ${(err as Error).message}`, {
      grpcCode: GrpcCode.FAILED_PRECONDITION,
      cause: err,
    });
  }
  if (!acquireProfiler('cpu_profiler')) throw new ProfilerBusyError(profilerHolder());
  try {
    pprof().time.start(TIME_PROFILER_OPTIONS);
  } catch (err) {
    releaseProfiler('cpu_profiler');
    throw err;
  }
  let stopping: Promise<string> | undefined;
  const stop = async (): Promise<string> => {
    let taken;
    try {
      taken = pprof().time.stop();
    } finally {
      releaseProfiler('cpu_profiler');
    }
    const file = join(directory, `${name}-cpu-${fileTimestamp(new Date())}.pprof`);
    await writeFile(file, await pprof().encode(taken));
    return file;
  };
  return {
    directory,
    stop: () => (stopping ??= stop()),
  };
}
