import { timerDurationMs } from '@sluice/config/timer-duration';

/** Milliseconds of a configured Go duration for a timer; an InvalidArgumentError names the field otherwise. */
export const durationMs = timerDurationMs;
