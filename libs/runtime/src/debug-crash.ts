/** The variable that makes a process crash on purpose once it serves (for testing crash reports). */
export const DEBUG_CRASH_ENV = 'SLUICE_DEBUG_CRASH';

/**
 * When `SLUICE_DEBUG_CRASH` is set (test use only: it makes the process fail on purpose), throws an
 * uncaught error whose message is the variable's value a moment after the process serves, so that
 * the crash guards and `crash_report` can be seen at work. Unset, it does nothing.
 */
export function scheduleDebugCrash(env: Readonly<Record<string, string | undefined>> = process.env): void {
  const message = env[DEBUG_CRASH_ENV];
  if (message === undefined || message === '') return;
  setTimeout(() => { throw new Error(message); }, 100);
}
