#!/usr/bin/env node
// sluice-tap: the sidecar traffic tap. Wiring only; the logic is in @sluice/tap.
import { LifecycleGroup } from '@sluice/lifecycle';
import { createTapLogger, createTapRegistry, parseTapFlags, startTap, type Tap } from '@sluice/tap';

const parsed = parseTapFlags(process.argv.slice(2), process.env);
if (parsed.kind === 'help') {
  process.stdout.write(`${parsed.text}\n`);
  process.exit(0);
}
if (parsed.kind === 'problems') {
  for (const p of parsed.problems) process.stderr.write(`sluice-tap: ${p}\n`);
  process.exit(2);
}
const options = parsed.options;
const registry = createTapRegistry();
const logger = createTapLogger(options.logLevel, registry);

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function exit(code: number): Promise<never> {
  await logger.close();
  process.exit(code);
}

let tap: Tap;
try {
  tap = await startTap(options, { logger, registry });
} catch (err) {
  logger.error('tap failed to start', { error: message(err) });
  await exit(1);
}

// One shutdown for the process: the tap drains within tap.shutdown_timeout, and the group gives it a
// second more to close what is left before it stops waiting.
const lifecycle = new LifecycleGroup({ name: 'sluice-tap', logger, defaultDeadlineMs: options.shutdownTimeoutMs + 1000 })
  .add({ name: 'tap', shutdown: (opts) => tap.shutdown({ deadlineMs: Math.min(options.shutdownTimeoutMs, opts?.deadlineMs ?? Infinity) }) });

let signalled = false;
const stop = (signal: NodeJS.Signals): void => {
  if (signalled) {
    logger.warn('second signal: exiting now', { signal });
    void exit(1);
    return;
  }
  signalled = true;
  logger.info('signal received', { signal });
  lifecycle.shutdown().then(
    () => exit(0),
    (err: unknown) => {
      logger.error('shutdown failed', { error: message(err) });
      return exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
