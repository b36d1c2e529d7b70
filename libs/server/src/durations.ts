import { timerDurationMs } from '@sluice/config';

/** Parse a configuration duration into milliseconds for a timer, naming the field on failure. */
export const durationMs = timerDurationMs;
