import { GrpcCode, SluiceError, ErrorCode } from '@sluice/errors';
import type { ProfilerHolder } from './profiler-state.js';

/** The CPU profiler is taken: 409 in the gateway shape. */
export class ProfilerBusyError extends SluiceError {
  constructor(holder: ProfilerHolder | undefined) {
    const message = holder === 'cpu_profiler'
      ? 'the CPU profiler (profilers.cpu_profiler) is on: the HTTP profile endpoint does not work while it runs'
      : 'a CPU profile is already being taken; try again when it is done';
    super(ErrorCode.PROFILER_BUSY, message, { grpcCode: GrpcCode.ABORTED });
    this.name = 'ProfilerBusyError';
  }
}
